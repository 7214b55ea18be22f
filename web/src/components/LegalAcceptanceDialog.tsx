import { Button, Modal, Space, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { acceptText } from '../api/content';
import { logout } from '../auth/flow';
import type { LegalText } from '../types/content';

const Markdown = lazy(() => import('./Markdown'));

/**
 * The question to accept a newly published version of the terms or privacy policy (or log out): it cannot be
 * dismissed. `onAccepted` once the server has the acceptance (components/LegalAcceptance.tsx asks the next one).
 */
export default function LegalAcceptanceDialog({ current, onAccepted }: { current: LegalText; onAccepted: () => void }) {
  const { t, i18n } = useTranslation('legal');
  const [busy, setBusy] = useState(false);
  const lang = i18n.language === 'en' ? 'en' : 'sv';
  const accept = async () => {
    setBusy(true);
    try {
      await acceptText(current.kind, current.version);
      onAccepted();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t(current.kind === 'terms' ? 'legal.newTerms' : 'legal.newPrivacy')}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      width={720}
      data-testid="legal-acceptance"
      footer={
        <Space>
          <Button onClick={() => void logout()} data-testid="legal-logout">
            {t('legal.logout')}
          </Button>
          <Button type="primary" loading={busy} onClick={() => void accept()} data-testid="legal-accept">
            {t('legal.accept')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t('legal.acceptLead', { version: current.version })}</Typography.Paragraph>
      <div className="legal-modal-text">
        <Suspense fallback={null}>
          <Markdown text={current[lang]} testId="legal-acceptance-text" />
        </Suspense>
      </div>
    </Modal>
  );
}
