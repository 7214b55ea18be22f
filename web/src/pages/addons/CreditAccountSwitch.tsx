/** Customer details (admin, sales): the credit-information (Bisnode) account on or off (`customer/bisnode/{uid}/`). */
import './texts';
import { useState } from 'react';
import { useLoad } from '../../api/useList';
import { Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { api } from '../../api/client';
import { customerServices } from '../../api/subscriptions';
import { roleOfPath } from '../../auth/roles';

export default function CreditAccountSwitch({ uid }: { uid: string }) {
  const { t } = useTranslation('addons');
  const role = roleOfPath(useLocation().pathname);
  const staff = role === 'admin' || role === 'sales';
  const [busy, setBusy] = useState(false);
  // Staff only: the switch is not shown to anyone else (null).
  const { data: active, set: setActive } = useLoad<boolean | null>(
    async () => (staff ? (await customerServices(uid)).bisnode_account_active : null),
    `${uid}:${staff}`,
  );
  if (!staff || active === null) return null;
  const change = async (next: boolean) => {
    setBusy(true);
    try {
      await api.put(`/customer/bisnode/${encodeURIComponent(uid)}/`, { active: next });
      setActive(next);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space style={{ margin: '8px 0' }}>
      <Switch checked={active} loading={busy} onChange={(v) => void change(v)} data-testid="credit-account-switch" aria-label={t('credit.account')} />
      <Typography.Text>{t('credit.account')}</Typography.Text>
    </Space>
  );
}
