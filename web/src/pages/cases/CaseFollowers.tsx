import { Button, Card, Popconfirm, Select, Typography } from 'antd';
import { useState } from 'react';
import { useLoad } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { addFollower, caseFollowers, removeFollower } from '../../api/cases';
import { ApiError } from '../../api/errors';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import { useSession } from '../../store/session';

/**
 * The followers card of cases/details/{id} (spec §3: a contact without "view all cases" sees the cases it created
 * or follows): who follows the case; whoever may manage followers (the server's answer) adds one of the company's
 * contacts and takes followers off; a follower stops following. A follower who thereby loses the case is led to
 * its case list.
 */
export default function CaseFollowers({ caseUid }: { caseUid: string }) {
  const { t } = useTranslation('cases');
  const role = useAreaRole();
  const navigate = useNavigate();
  const me = useSession((s) => s.user?.uid);
  const [pick, setPick] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const { data, reload: load, set: setData } = useLoad(() => caseFollowers(caseUid), caseUid);

  const add = async () => {
    if (!pick) return;
    setBusy(true);
    try {
      await addFollower(caseUid, pick);
      setPick(undefined);
      await load();
    } catch {
      /* notified by the client */
    } finally {
      setBusy(false);
    }
  };

  const remove = async (uid: string) => {
    setBusy(true);
    try {
      await removeFollower(caseUid, uid);
      if (uid !== me) {
        await load();
        return;
      }
      try {
        setData(await caseFollowers(caseUid));
      } catch (err) {
        // Followed only: the case is no longer this user's to see.
        if (err instanceof ApiError && err.status === 404) navigate(pathFor(role, 'cases'));
      }
    } catch {
      /* notified by the client */
    } finally {
      setBusy(false);
    }
  };

  if (!data) return null;
  const full = data.followers.length >= data.max;
  return (
    <Card title={t('followers.title')} style={{ marginTop: 16 }} data-testid="case-followers">
      <Typography.Paragraph type="secondary">{t('followers.hint')}</Typography.Paragraph>
      {data.followers.length === 0 && <Typography.Paragraph data-testid="case-followers-empty">{t('followers.empty')}</Typography.Paragraph>}
      <ul className="plain-list" style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="case-followers-list">
        {data.followers.map((f) => (
          <li
            key={f.uid}
            data-testid={`case-follower-${f.uid}`}
            style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 8, padding: '6px 0', borderBottom: '1px solid #f0f0f0' }}
          >
            <span style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
              {f.name}
              {f.uid === me && <Typography.Text type="secondary"> ({t('followers.you')})</Typography.Text>}
            </span>
            {f.uid === me ? (
              <Popconfirm
                title={t('followers.confirmStop')}
                okText={t('actions.yes')}
                cancelText={t('actions.no')}
                okButtonProps={{ 'data-testid': 'case-follower-stop-confirm' } as Record<string, string>}
                onConfirm={() => remove(f.uid)}
              >
                <Button size="small" loading={busy} data-testid="case-follower-stop">
                  {t('followers.stop')}
                </Button>
              </Popconfirm>
            ) : (
              data.can_manage && (
                <Popconfirm
                  title={t('followers.confirmRemove', { name: f.name })}
                  okText={t('actions.yes')}
                  cancelText={t('actions.no')}
                  okButtonProps={{ 'data-testid': 'case-follower-remove-confirm' } as Record<string, string>}
                  onConfirm={() => remove(f.uid)}
                >
                  <Button size="small" danger loading={busy} data-testid={`case-follower-remove-${f.uid}`}>
                    {t('followers.remove')}
                  </Button>
                </Popconfirm>
              )
            )}
          </li>
        ))}
      </ul>
      {data.can_manage &&
        (full ? (
          <Typography.Paragraph type="secondary" style={{ marginTop: 12 }} data-testid="case-followers-full">
            {t('followers.full', { max: data.max })}
          </Typography.Paragraph>
        ) : data.candidates.length === 0 ? (
          <Typography.Paragraph type="secondary" style={{ marginTop: 12 }} data-testid="case-followers-none">
            {t('followers.noCandidates')}
          </Typography.Paragraph>
        ) : (
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginTop: 12 }}>
            <Select
              value={pick}
              onChange={setPick}
              showSearch
              optionFilterProp="label"
              placeholder={t('followers.pick')}
              aria-label={t('followers.pick')}
              options={data.candidates.map((c) => ({ value: c.uid, label: c.name }))}
              style={{ flex: '1 1 200px', minWidth: 0 }}
              data-testid="case-follower-pick"
            />
            <Button type="primary" onClick={() => void add()} disabled={!pick} loading={busy} data-testid="case-follower-add">
              {t('followers.add')}
            </Button>
          </div>
        ))}
    </Card>
  );
}
