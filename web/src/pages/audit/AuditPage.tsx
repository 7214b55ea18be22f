import { Button, Form, Select, Space } from 'antd';
import { ClearOutlined, DownloadOutlined } from '@ant-design/icons';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { auditPage, exportAudit } from '../../api/audit';
import { accountManagers } from '../../api/customerAdmin';
import { useCursorList } from '../../api/paging';
import CustomerSelect from '../../components/CustomerSelect';
import { langOf } from '../../format';
import { useAreaRole } from '../../routes/pathFor';
import { AUDIT_ACTIONS, type AuditEvent, type AuditFilter } from '../../types/audit';
import { AuditFrame, PeriodPicker } from './AuditFrame';
import AuditTable from './AuditTable';

/** The filter the address names (`?customer=&user=&action=&from=&to=`): a filtered view can be linked and survives a reload. */
export function filterOf(params: URLSearchParams): AuditFilter {
  const day = (v: string | null) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined);
  const action = params.get('action');
  return {
    customer: params.get('customer') || undefined,
    user: params.get('user') || undefined,
    action: AUDIT_ACTIONS.find((a) => a === action),
    from: day(params.get('from')),
    to: day(params.get('to')),
  };
}

/** The address's query for a filter (empty filters left out). */
export function paramsOf(f: AuditFilter): Record<string, string> {
  return Object.fromEntries(Object.entries(f).filter((e): e is [string, string] => !!e[1]));
}

/**
 * The firm's people by name (lawyers and sales persons), for the user filter;
 * anyone else (an admin, a customer) is picked from a row of the list, and
 * shown by the name the row gave.
 */
function UserSelect({ value, onChange, known }: { value?: string; onChange: (uid?: string) => void; known: Record<string, string> }) {
  const { t } = useTranslation('audit');
  const [options, setOptions] = useState<{ value: string; label: string }[]>([]);
  const seq = useRef(0);
  const search = (q: string) => {
    const n = ++seq.current;
    Promise.all([
      api.get<{ uid: string; full_name: string }[]>('/lawyer/dropdown/list/', { query: { search: q }, suppressError: true }).catch(() => []),
      accountManagers().catch(() => []),
    ]).then(([lawyers, sales]) => {
      if (n !== seq.current) return;
      const needle = q.trim().toLowerCase();
      const salesOptions = sales
        .map((s) => ({ value: s.uid, label: `${s.first_name} ${s.last_name}`.trim() }))
        .filter((o) => !needle || o.label.toLowerCase().includes(needle));
      setOptions([...lawyers.map((l) => ({ value: l.uid, label: l.full_name })), ...salesOptions]);
    });
  };
  useEffect(() => search(''), []);
  const shown = value && !options.some((o) => o.value === value) ? [{ value, label: known[value] ?? t('filter.userPicked') }, ...options] : options;
  return (
    <Select
      showSearch
      allowClear
      value={value}
      onChange={(v) => onChange(v || undefined)}
      filterOption={false}
      onSearch={search}
      options={shown}
      placeholder={t('filter.userPlaceholder')}
      notFoundContent={t('empty', { ns: 'common' })}
      data-testid="audit-user-select"
      style={{ width: '100%' }}
    />
  );
}

/**
 * settings/audit/ (admin): who read or changed client data, newest first, 25
 * a page; narrowed by customer, user, kind of event and period (without a customer or user
 * the server reads the last 30 days, at most 366), exported as the server's
 * CSV in the interface's language.
 */
export default function AuditPage({ titleKey }: { titleKey: string }) {
  const { t, i18n } = useTranslation('audit');
  const role = useAreaRole();
  const [params, setParams] = useSearchParams();
  const filter = filterOf(params);
  const key = JSON.stringify(filter);
  const [customers, setCustomers] = useState<Record<string, string>>({});
  const [exporting, setExporting] = useState(false);
  const list = useCursorList<AuditEvent>(
    (cursor) =>
      auditPage(filter, cursor).then((p) => {
        setCustomers((old) => ({ ...old, ...(p.customers ?? {}) }));
        return p;
      }),
    key,
  );
  const actors = Object.fromEntries(list.rows.filter((r) => r.actor_uid).map((r) => [r.actor_uid, r.actor_name]));
  const [actorNames, setActorNames] = useState<Record<string, string>>({});
  useEffect(() => {
    if (Object.keys(actors).some((k) => !(k in actorNames))) setActorNames((old) => ({ ...old, ...actors }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list.rows]);

  const set = (change: Partial<AuditFilter>) => setParams(paramsOf({ ...filter, ...change }));
  const hasPeriod = !!(filter.from && filter.to);

  return (
    <AuditFrame
      testId="audit-page"
      title={t(titleKey, { ns: 'routes' })}
      intro={t('intro')}
      filters={
        <>
          <Form layout="vertical" className="audit-filters" data-testid="audit-filters">
            <Form.Item label={t('filter.customer')}>
              <CustomerSelect value={filter.customer} onChange={(uid) => set({ customer: uid })} testId="audit-customer-select" />
            </Form.Item>
            <Form.Item label={t('filter.user')}>
              <UserSelect value={filter.user} onChange={(uid) => set({ user: uid })} known={actorNames} />
            </Form.Item>
            <Form.Item label={t('filter.action')}>
              <Select
                allowClear
                value={filter.action}
                onChange={(v) => set({ action: v || undefined })}
                options={AUDIT_ACTIONS.map((a) => ({ value: a, label: t(`action.${a}`) }))}
                placeholder={t('filter.actionPlaceholder')}
                data-testid="audit-action-select"
                style={{ width: '100%' }}
              />
            </Form.Item>
            <Form.Item label={t('filter.period')} extra={!hasPeriod ? t('filter.periodDefault') : undefined}>
              <PeriodPicker value={filter} onChange={set} testId="audit-period" />
            </Form.Item>
          </Form>
          <Space wrap style={{ marginBottom: 16 }}>
            <Button
              type="primary"
              icon={<DownloadOutlined />}
              loading={exporting}
              data-testid="audit-export"
              onClick={() => {
                setExporting(true);
                exportAudit(filter, langOf(i18n.language))
                  .catch(() => undefined)
                  .finally(() => setExporting(false));
              }}
            >
              {t('exportCsv')}
            </Button>
            <Button icon={<ClearOutlined />} disabled={key === '{}'} onClick={() => setParams({})} data-testid="audit-clear">
              {t('filter.clear')}
            </Button>
          </Space>
        </>
      }
      table={
        <AuditTable
          role={role}
          rows={list.rows}
          loading={list.loading}
          error={list.error}
          onRetry={list.reload}
          customers={customers}
          onUser={(uid) => set({ user: uid })}
          onCustomer={(uid) => set({ customer: uid })}
        />
      }
      list={list}
      pagerTestId="audit-pager"
    />
  );
}
