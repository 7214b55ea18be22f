import { Button, Modal, Space, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { acceptText, fetchPendingTexts } from '../api/content';
import { useList } from '../api/useList';
import { logout } from '../auth/flow';
import type { LegalText } from '../types/content';

const Markdown = lazy(() => import('./Markdown'));

/**
 * After sign-in, a customer whose terms or privacy policy has a newer
 * version than the one they accepted is asked to accept it, once (or log
 * out). Nothing shows when nothing is pending.
 */
export default function LegalAcceptance() {
  const { t, i18n } = useTranslation('legal');
  const { rows: pending, set: setPending } = useList<LegalText>(fetchPendingTexts);
  const [busy, setBusy] = useState(false);
  const current = pending?.[0];
  if (!current) return null;
  const lang = i18n.language === 'en' ? 'en' : 'sv';
  const accept = async () => {
    setBusy(true);
    try {
      await acceptText(current.kind, current.version);
      setPending((p) => p?.slice(1) ?? null);
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
