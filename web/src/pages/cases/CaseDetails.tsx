import { Alert, Button, Card, Checkbox, DatePicker, Descriptions, Form, Input, Modal, Popconfirm, Select, Space } from 'antd';
import Table from '../../components/ResponsiveTable';
import dayjs from '../../i18n/dates';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import Link from '../../components/Link';
import { useLoad } from '../../api/useList';
import { caseHours, changeCaseStatus, createHour, deleteHour, getCase, hoursWorkbook } from '../../api/cases';
import type { CaseAction, CaseDetails as Details, CaseHour } from '../../types/cases';
import { massUpdateHours } from '../../api/caseHours';
import { applyServerErrors } from '../../api/formErrors';
import { api } from '../../api/client';
import { saveFile } from '../../download';
import { countryName, formatAddress, namedIn } from '../../format';
import { hasRoute, pathFor, useAreaRole } from '../../routes/pathFor';
import AdditionalHours from './AdditionalHours';
import CaseDocuments from './CaseDocuments';
import CaseFollowers from './CaseFollowers';
import CaseNotes from './CaseNotes';
import CaseRating from './CaseRating';
import LegalHoldBanner from './LegalHoldBanner';
import Conversation from './Conversation';
import { StatusTag } from './CaseList';
import HourBulkActions from './HourBulkActions';
import { formatHours, parseHours } from './status';
import { hourPayload, type HourValues } from './hourEntry';
import { useFeedback } from '../../layout/feedback';
import PageTitle from '../../components/PageTitle';

/** Closing, reopening and transferring back ask for confirmation (spec §4), as does withdrawing a draft. */
const CONFIRM: Partial<Record<CaseAction, string>> = {
  withdraw: 'actions.confirmWithdraw',
  complete: 'actions.confirmComplete',
  reopen: 'actions.confirmReopen',
  transfer: 'actions.confirmTransfer',
};

const hourRule = (t: (k: string) => string) => ({
  validator: (_: unknown, v: string | undefined) =>
    !v || parseHours(v) !== null ? Promise.resolve() : Promise.reject(new Error(t('hours.invalid'))),
});

/** cases/details/{id}: the fields, status actions, hours table and add-hours form. */
export default function CaseDetails({ titleKey }: { titleKey: string }) {
  const { t, i18n } = useTranslation('cases');
  const { t: th } = useTranslation('caseHours');
  const { id = '' } = useParams();
  const role = useAreaRole();
  // The hour screens: admin and lawyers only (spec §2).
  const hourScreens = hasRoute(role, 'caseHourUpdate');
  const [selectedHours, setSelectedHours] = useState<string[]>([]);
  const { data, reload: load } = useLoad(() => Promise.all([getCase(id), caseHours(id)]), id);
  const c: Details | null = data?.[0] ?? null;
  const hours: CaseHour[] = data?.[1] ?? [];
  const [busy, setBusy] = useState(false);
  const [hourErrors, setHourErrors] = useState<string[]>([]);
  const [form] = Form.useForm<HourValues>();
  const { message } = useFeedback();
  const [lawyers, setLawyers] = useState<{ value: string; label: string }[]>([]);
  const searchLawyers = useCallback((q: string) => {
    api
      .get<{ uid: string; full_name: string }[]>('/lawyer/dropdown/list/', { query: { search: q } })
      .then((l) => setLawyers(l.map((x) => ({ value: x.uid, label: x.full_name }))))
      .catch(() => undefined);
  }, []);
  useEffect(() => {
    if (role === 'admin') searchLawyers('');
  }, [role, searchLawyers]);

  const act = async (action: CaseAction) => {
    setBusy(true);
    try {
      await changeCaseStatus(id, action);
      await load();
    } catch {
      /* notified by the client */
    } finally {
      setBusy(false);
    }
  };
  const ask = (action: CaseAction) => {
    const confirm = CONFIRM[action];
    if (!confirm) return void act(action);
    Modal.confirm({
      title: t(confirm),
      okText: t('actions.yes'),
      cancelText: t('actions.no'),
      okButtonProps: { 'data-testid': 'case-action-confirm' } as Record<string, string>,
      onOk: () => act(action),
    });
  };

  const addHours = async (v: HourValues) => {
    setHourErrors([]);
    try {
      // Admin enters hours for the lawyer they pick (spec §6; the server requires one).
      await createHour(hourPayload(id, { ...v, lawyer: role === 'admin' ? v.lawyer : undefined }));
      form.resetFields();
      void message.success(t('hours.added'));
      await load();
    } catch (err) {
      setHourErrors(applyServerErrors(form, err, ['hour', 'non_billable_hour', 'rattsskydd_hour', 'date', 'time']));
    }
  };

  const removeHour = async (h: CaseHour) => {
    try {
      await deleteHour(id, h.id);
      await load();
    } catch {
      /* notified */
    }
  };

  const exportHours = async () => {
    if (!c) return;
    try {
      const lang = i18n.language.startsWith('en') ? 'en' : 'sv';
      saveFile(await hoursWorkbook(id, lang), `${t('hours.excelFile')}-${c.case_number}.xlsx`);
    } catch {
      /* notified */
    }
  };

  if (!c) return <Card loading data-testid="case-details-loading" />;
  const billable = hours.reduce((a, h) => a + h.hour, 0);
  const canChangeHours = c.can_enter_hours;
  // Admin invoices entries at any time, closed cases included (the server's rule).
  const canInvoice = canChangeHours || (role === 'admin' && hours.length > 0);
  return (
    <div className="page" data-testid="case-details-page">
      {c.legal_hold && <LegalHoldBanner hold={c.legal_hold} />}
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <PageTitle titleKey={titleKey}>
          {' '}<span className="nowrap">{c.case_number}</span>
        </PageTitle>
        <Space wrap>
          {c.actions.map((a) => (
            <Button key={a} loading={busy} danger={a === 'withdraw'} type={a === 'accept' || a === 'publish' ? 'primary' : 'default'} onClick={() => ask(a)} data-testid={`case-action-${a}`}>
              {t(`actions.${a}`)}
            </Button>
          ))}
          {c.can_edit && (
            <Link to={pathFor(role, 'caseEdit', { case_uid: c.uid })}>
              <Button data-testid="case-edit">{t('actions.edit')}</Button>
            </Link>
          )}
          {hasRoute(role, 'caseHistory') && (
            <Link to={pathFor(role, 'caseHistory', { id: c.uid })} data-testid="case-history-link">
              {t('details.history')}
            </Link>
          )}
          {hourScreens && (
            <Link to={pathFor(role, 'caseHistoryAdditional', { id: c.uid })} data-testid="case-history-additional-link">
              {th('additional.history')}
            </Link>
          )}
        </Space>
      </Space>
      <Card>
        <Descriptions column={{ xs: 1, md: 2 }} bordered size="small" data-testid="case-fields">
          <Descriptions.Item label={t('fields.status')}>
            <StatusTag status={c.status} />
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.subject')}>{c.subject}</Descriptions.Item>
          <Descriptions.Item label={t('fields.customer')}>{c.customer_name}</Descriptions.Item>
          <Descriptions.Item label={t('fields.type')}>{namedIn(c.type, i18n.language)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.knowledge_sector')}>{c.knowledge_sector ? namedIn(c.knowledge_sector, i18n.language) : '–'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.lawyer')}>{c.lawyer_name ?? '–'}</Descriptions.Item>
          {/* 0: not estimated yet (a customer may leave it to the firm; an estimate is above 0). */}
          <Descriptions.Item label={t('fields.estimated_hours')}>{c.estimated_hours > 0 ? formatHours(c.estimated_hours, i18n.language) : '–'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.client')}>{c.client || '–'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.counterpart')}>{c.counterpart || '–'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.disqualification_control')}>{c.disqualification_control ? t('actions.yes') : t('actions.no')}</Descriptions.Item>
          <Descriptions.Item label={t('fields.contact_person')}>{c.contact_person || '–'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.start_date')}>{c.start_date ?? '–'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.deadline')}>{c.deadline ?? '–'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.address')}>{formatAddress({ ...c.address, country: countryName(c.address.country, i18n.language) }) || '–'}</Descriptions.Item>
          {c.short_internal_description && (
            <Descriptions.Item label={t('fields.short_internal_description')}>{c.short_internal_description}</Descriptions.Item>
          )}
          <Descriptions.Item label={t('fields.description')} span={2}>
            {c.description}
          </Descriptions.Item>
          {c.note && (
            <Descriptions.Item label={t('fields.note')} span={2}>
              {c.note}
            </Descriptions.Item>
          )}
        </Descriptions>
      </Card>
      <CaseFollowers key={`followers-${c.uid}`} caseUid={c.uid} />
      <CaseDocuments key={c.uid} caseUid={c.uid} />
      <CaseRating key={`rating-${c.uid}-${c.status}`} c={c} role={role} />
      <Conversation key={`conversation-${c.uid}-${c.status}`} caseUid={c.uid} />
      <CaseNotes key={`notes-${c.uid}`} c={c} role={role} />
      <Card
        title={t('hours.title')}
        style={{ marginTop: 16 }}
        extra={
          <Space>
            <span data-testid="case-hours-total">{t('hours.total', { hours: formatHours(billable, i18n.language) })}</span>
            <Button size="small" onClick={() => void exportHours()} disabled={hours.length === 0} data-testid="case-hours-excel">
              {t('hours.excel')}
            </Button>
          </Space>
        }
      >
        {canInvoice && (
          <HourBulkActions
            caseUid={c.uid}
            selected={selectedHours}
            send={massUpdateHours}
            testPrefix="hours"
            onDone={() => {
              setSelectedHours([]);
              void load().catch(() => undefined);
            }}
          />
        )}
        <Table<CaseHour>
          rowKey="id"
          data-testid="case-hours-table"
          rowSelection={canInvoice ? { selectedRowKeys: selectedHours, onChange: (keys) => setSelectedHours(keys.map(String)) } : undefined}
          dataSource={hours}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: t('list.empty') }}
          columns={[
            { title: t('hours.date'), key: 'date', render: (_, h) => <span className="nowrap">{`${h.date}${h.time ? ` ${h.time}` : ''}`}</span> },
            { title: t('hours.lawyer'), dataIndex: 'lawyer_name', key: 'lawyer' },
            { title: t('hours.hour'), key: 'hour', render: (_, h) => formatHours(h.hour, i18n.language) },
            { title: t('hours.non_billable_hour'), key: 'nb', render: (_, h) => formatHours(h.non_billable_hour, i18n.language) },
            { title: t('hours.rattsskydd_hour'), key: 'rs', render: (_, h) => formatHours(h.rattsskydd_hour, i18n.language) },
            { title: t('hours.is_invoiced'), key: 'inv', render: (_, h) => (h.is_invoiced ? t('actions.yes') : t('actions.no')) },
            { title: t('hours.description'), dataIndex: 'description', key: 'description' },
            ...(canChangeHours
              ? [
                  {
                    title: '',
                    key: 'actions',
                    render: (_: unknown, h: CaseHour) => (
                      <Space>
                      {hourScreens && (
                        <Link to={pathFor(role, 'caseHourUpdate', { id: h.id }, { case: c.uid })} data-testid={`hour-edit-${h.id}`}>
                          <Button size="small">{th('table.edit')}</Button>
                        </Link>
                      )}
                      <Popconfirm title={t('hours.confirmDelete')} okText={t('actions.yes')} cancelText={t('actions.no')} onConfirm={() => removeHour(h)}>
                        <Button size="small" danger>
                          {t('hours.delete')}
                        </Button>
                      </Popconfirm>
                      </Space>
                    ),
                  },
                ]
              : []),
          ]}
        />
        {canChangeHours && (
          <Form<HourValues> form={form} name="case_hours" layout="inline" onFinish={addHours} style={{ marginTop: 16, rowGap: 8 }} initialValues={{ date: dayjs() }} data-testid="hour-form">
            {role === 'admin' && (
              <Form.Item name="lawyer" label={t('fields.lawyer')} rules={[{ required: true, message: t('hours.lawyerRequired') }]}>
                <Select
                  showSearch
                  filterOption={false}
                  onSearch={searchLawyers}
                  options={lawyers}
                  placeholder={t('hours.pickLawyer')}
                  style={{ minWidth: 180 }}
                  data-testid="hour-lawyer"
                />
              </Form.Item>
            )}
            <Form.Item name="hour" label={t('hours.hour')} rules={[{ required: true, message: t('hours.required') }, hourRule(t)]}>
              <Input inputMode="decimal" placeholder="1,5" style={{ width: 90 }} data-testid="hour-input" />
            </Form.Item>
            <Form.Item name="non_billable_hour" label={t('hours.non_billable_hour')} rules={[hourRule(t)]}>
              <Input inputMode="decimal" style={{ width: 90 }} />
            </Form.Item>
            <Form.Item name="rattsskydd_hour" label={t('hours.rattsskydd_hour')} rules={[hourRule(t)]}>
              <Input inputMode="decimal" style={{ width: 90 }} />
            </Form.Item>
            <Form.Item name="date" label={t('hours.date')} rules={[{ required: true, message: t('hours.required') }]}>
              <DatePicker format="YYYY-MM-DD" allowClear={false} />
            </Form.Item>
            <Form.Item name="time" label={t('hours.time')}>
              <Input placeholder="09:30" style={{ width: 80 }} />
            </Form.Item>
            <Form.Item name="description" label={t('hours.description')}>
              <Input style={{ width: 200 }} />
            </Form.Item>
            <Form.Item name="is_invoiced" valuePropName="checked">
              <Checkbox>{t('hours.is_invoiced')}</Checkbox>
            </Form.Item>
            <Button type="primary" htmlType="submit" data-testid="hour-submit">
              {t('hours.add')}
            </Button>
          </Form>
        )}
        {hourErrors.length > 0 && <Alert type="error" style={{ marginTop: 8 }} title={hourErrors.join(' ')} data-testid="hour-errors" />}
      </Card>
      <AdditionalHours c={c} />
    </div>
  );
}
