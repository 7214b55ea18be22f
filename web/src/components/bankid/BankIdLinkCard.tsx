import { Button, Card, Space, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useLoad } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import { getBankIdLink, startBankIdLink, unlinkBankId, type BankIdLink } from '../../api/bankid';
import { serverMessages } from '../../api/formErrors';
import { translateServerMessage } from '../../i18n';
import MessageAlert from '../MessageAlert';
import './texts';

const BankIdPanel = lazy(() => import('./BankIdPanel'));

/** The profile's BankID: whether it is linked, linking by completing an order, and unlinking. */
export default function BankIdLinkCard() {
  const { t } = useTranslation('bankid');
  const { data: link, reload: load } = useLoad<BankIdLink>(getBankIdLink);
  const [linking, setLinking] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);

  const unlink = async () => {
    try {
      await unlinkBankId();
      setNote({ ok: true, text: translateServerMessage('bankid_unlinked') });
    } catch (err) {
      setNote({ ok: false, text: serverMessages(err).join(' ') });
    }
    void load();
  };

  return (
    <Card className="form-card" title={t('profile.title')} data-testid="profile-bankid" style={{ marginTop: 16 }}>
      <MessageAlert messages={note?.ok ? [note.text] : null} type="success" testId="profile-bankid-success" />
      <MessageAlert messages={note && !note.ok ? [note.text] : null} testId="profile-bankid-error" />
      {linking ? (
        <Suspense fallback={null}>
          <BankIdPanel
            start={startBankIdLink}
            signedIn
            onClose={() => setLinking(false)}
            onComplete={() => {
              setLinking(false);
              setNote({ ok: true, text: translateServerMessage('bankid_linked') });
              void load();
            }}
          />
        </Suspense>
      ) : (
        <Space orientation="vertical" size="middle">
          <Typography.Text data-testid="profile-bankid-state" data-linked={link ? String(link.linked) : undefined}>
            {link?.linked ? t('profile.linked', { number: link.personal_number ?? '' }) : t('profile.notLinked')}
          </Typography.Text>
          {link?.linked ? (
            <Button onClick={() => void unlink()} data-testid="profile-bankid-unlink">
              {t('profile.unlink')}
            </Button>
          ) : (
            <Button
              type="primary"
              disabled={!link}
              onClick={() => {
                setNote(null);
                setLinking(true);
              }}
              data-testid="profile-bankid-link"
            >
              {t('profile.link')}
            </Button>
          )}
        </Space>
      )}
    </Card>
  );
}
