/**
 * settings/packages/ and settings/service-plans/ (admin): lists with edit,
 * publish, retire and delete (each confirmed), and the create forms.
 */
import { Button, Card, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import Table from '../../components/ResponsiveTable';
import { serviceName } from '../../components/names';
import { useEffect, useState } from 'react';
import { useList } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import Link from '../../components/Link';
import { applyFieldErrors } from './fieldErrors';
import {
  createPackage,
  createServicePlan,
  deletePackage,
  deleteServicePlan,
  listPackages,
  listServicePlans,
  listServices,
  retirePackage,
  retireServicePlan,
  updatePackage,
  updateServicePlan,
} from '../../api/subscriptions';
import { formatDecimal } from '../../format';
import { DAYS_MAX, DAYS_MIN, NAME_MAX_CHARS } from '../../validation/bounds';
import type { Package, Service, ServicePlan } from '../../types/subscriptions';
import type { FormInstance } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { RouteId } from '../../routes/catalogue';
import { formatHours, formatSek } from '../subscriptions/format';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import { TableSkeleton } from '../../components/Skeletons';
import { useFeedback } from '../../layout/feedback';
import PageTitle from '../../components/PageTitle';
import CatalogueFormPage from './CatalogueFormPage';
import ConfirmDelete from '../../components/ConfirmDelete';

/** Where an entry stands: on offer, unpublished (staff still add it), retired; bought. */
function OfferTags({ r }: { r: { public: boolean; retired?: boolean; bought?: boolean } }) {
  const { t } = useTranslation('catalogue');
  return (
    <Space size={4} wrap>
      {r.retired ? (
        <Tag color="red" data-testid="offer-retired">{t('offer.retired')}</Tag>
      ) : r.public ? (
        <Tag color="green">{t('offer.public')}</Tag>
      ) : (
        <Tag>{t('offer.unpublished')}</Tag>
      )}
      {r.bought && <Tag color="blue">{t('offer.bought')}</Tag>}
    </Space>
  );
}

interface OfferRow {
  id: number;
  name: string;
  price: number;
  public: boolean;
  retired?: boolean;
  bought?: boolean;
}

/**
 * An entry's actions, each after a yes: edit (a dialog with the entry's
 * values), publish or unpublish, retire or reinstate, and delete (only
 * while never bought: a bought one can only be retired).
 */
function OfferActions<T extends OfferRow>({
  r,
  kind,
  onEdit,
  onChanged,
  calls,
}: {
  r: T;
  kind: 'packages' | 'plans';
  onEdit: (r: T) => void;
  onChanged: () => void;
  calls: Calls<T>;
}) {
  const { t } = useTranslation('catalogue');
  const { message } = useFeedback();
  const run = async (call: () => Promise<unknown>, done: string) => {
    try {
      await call();
      void message.success(t(done));
    } catch {
      /* the client's notification says why */
    }
    onChanged();
  };
  const confirm = { okText: t('yes'), cancelText: t('no'), okButtonProps: { 'data-testid': 'offer-confirm-yes' } as Record<string, string> };
  return (
    <Space size={4} wrap data-testid={`offer-actions-${r.id}`}>
      <Button size="small" data-testid={`offer-edit-${r.id}`} onClick={() => onEdit(r)}>
        {t('edit')}
      </Button>
      {!r.retired && (
        <Popconfirm
          {...confirm}
          title={t(r.public ? 'offer.confirmUnpublish' : 'offer.confirmPublish', { name: r.name })}
          onConfirm={() => run(() => calls.publish(r, !r.public), 'saved')}
        >
          <Button size="small" data-testid={`offer-publish-${r.id}`}>
            {t(r.public ? 'offer.unpublish' : 'offer.publish')}
          </Button>
        </Popconfirm>
      )}
      <Popconfirm
        {...confirm}
        title={t(r.retired ? 'offer.confirmReinstate' : `offer.confirmRetire.${kind}`, { name: r.name })}
        onConfirm={() => run(() => calls.retire(r.id, !r.retired), r.retired ? 'offer.reinstated' : 'offer.retiredDone')}
      >
        <Button size="small" data-testid={`offer-retire-${r.id}`}>
          {t(r.retired ? 'offer.reinstate' : 'offer.retire')}
        </Button>
      </Popconfirm>
      {r.bought ? (
        <Tooltip title={t('offer.boughtNoDelete')}>
          <Button size="small" danger disabled data-testid={`offer-delete-${r.id}`}>
            {t('delete')}
          </Button>
        </Tooltip>
      ) : (
        <ConfirmDelete
          ns="catalogue"
          title={t('offer.confirmDelete', { name: r.name })}
          yesTestId="offer-confirm-yes"
          onConfirm={() => run(() => calls.remove(r.id), 'deleted')}
          size="small"
          data-testid={`offer-delete-${r.id}`}
        />
      )}
    </Space>
  );
}

/** The form's values of a stored package (the edit dialog opens with them). */
const packageValues = (p: Package) => ({ name: p.name, hours: formatDecimal(p.hours), price: formatDecimal(p.price), duration_days: p.duration_days, public: p.public });

function PackageFields() {
  const { t } = useTranslation('catalogue');
  return (
    <>
      <Form.Item name="name" label={t('fields.name')} rules={[{ required: true, message: t('required') }]}>
        <Input maxLength={NAME_MAX_CHARS} data-testid="package-name" />
      </Form.Item>
      <Form.Item name="hours" label={t('fields.hours')} rules={[{ required: true, message: t('required') }]}>
        <Input inputMode="decimal" data-testid="package-hours" />
      </Form.Item>
      {offerTermsFields(t, 'package', 'duration_days', 'durationDays')}
    </>
  );
}

/** What packages and service plans both end with: the price, how many days a purchase lasts, on offer or not. */
function offerTermsFields(t: (k: string) => string, testPrefix: string, daysName: string, daysLabel: string) {
  return (
    <>
      <Form.Item name="price" label={t('fields.price')} rules={[{ required: true, message: t('required') }]}>
        <Input inputMode="decimal" data-testid={`${testPrefix}-price`} />
      </Form.Item>
      <Form.Item name={daysName} label={t(`fields.${daysLabel}`)} rules={[{ required: true, message: t('required') }]}>
        <InputNumber min={DAYS_MIN} max={DAYS_MAX} precision={0} data-testid={`${testPrefix}-days`} />
      </Form.Item>
      <Form.Item name="public" label={t('fields.public')} valuePropName="checked">
        <Switch data-testid={`${testPrefix}-public`} />
      </Form.Item>
    </>
  );
}

/** A dialog that edits one entry, opened with its stored values; bought rows keep their own terms (said above the form). */
function EditDialog<V extends object>({
  open,
  title,
  values,
  onClose,
  save,
  children,
}: {
  open: boolean;
  title: string;
  values: V | null;
  onClose: (saved: boolean) => void;
  save: (v: Record<string, unknown>) => Promise<unknown>;
  children: React.ReactNode;
}) {
  const { t } = useTranslation('catalogue');
  const { message } = useFeedback();
  const [form] = Form.useForm();
  useEffect(() => {
    if (open && values) {
      form.resetFields();
      form.setFieldsValue(values);
    }
  }, [open, values, form]);
  return (
    <Modal
      open={open}
      title={title}
      onCancel={() => onClose(false)}
      okText={t('save')}
      cancelText={t('cancel')}
      okButtonProps={{ 'data-testid': 'offer-edit-save' } as Record<string, string>}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('offer.editNote')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        data-testid="offer-edit-form"
        onFinish={async (v: Record<string, unknown>) => {
          try {
            await save(v);
            void message.success(t('saved'));
            onClose(true);
          } catch (e) {
            applyFieldErrors(form, e);
          }
        }}
      >
        {children}
      </Form>
    </Modal>
  );
}

type Calls<T> = { publish: (r: T, on: boolean) => Promise<unknown>; retire: (id: number, on: boolean) => Promise<unknown>; remove: (id: number) => Promise<unknown> };

/**
 * What a kind of entry differs in: its calls, its terms as the API reads them (a change of `public` alone sends
 * them back), the form's values of a stored entry, and how many days a purchase lasts (field and label).
 */
interface OfferKind<T extends OfferRow, V> {
  kind: 'packages' | 'plans';
  list: () => Promise<T[]>;
  create: (body: Record<string, unknown>) => Promise<unknown>;
  update: (id: number, body: Record<string, unknown>) => Promise<unknown>;
  retire: (id: number, on: boolean) => Promise<unknown>;
  remove: (id: number) => Promise<unknown>;
  terms: (r: T) => object;
  values: (r: T) => V;
  days: { name: 'duration_days' | 'expiry_days'; label: string };
}

/**
 * A catalogue list (packages, service plans): the create link, one row per entry with its terms (`columns`),
 * its state and actions, and the edit dialog with `fields` opened from the actions.
 */
function OfferListPage<T extends OfferRow, V extends object>({
  titleKey,
  testId,
  rowTestId,
  create,
  offer,
  columns,
  fields,
}: {
  titleKey: string;
  testId: string;
  rowTestId: string;
  create: { route: RouteId; label: string; testId?: string };
  offer: OfferKind<T, V>;
  /** The terms shown before the price and the days. */
  columns: ColumnsType<T>;
  fields: React.ReactNode;
}) {
  const { t } = useTranslation('catalogue');
  const role = useAreaRole();
  const { kind, values } = offer;
  const { rows, reload } = useList(offer.list);
  const [editing, setEditing] = useState<T | null>(null);
  const calls: Calls<T> = { publish: (r, on) => offer.update(r.id, { ...offer.terms(r), public: on }), retire: offer.retire, remove: offer.remove };
  return (
    <div className="page" data-testid={testId}>
      <PageTitle titleKey={titleKey} />
      <Card extra={<Link to={pathFor(role, create.route)} data-testid={create.testId}><Button type="primary">{create.label}</Button></Link>}>
        <Table<T>
          rowKey="id"
          dataSource={rows ?? []}
          locale={{ emptyText: rows == null ? <TableSkeleton /> : undefined }}
          pagination={false}
          onRow={(r) => ({ 'data-testid': `${rowTestId}-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            { title: t('fields.name'), dataIndex: 'name' },
            ...columns,
            { title: t('fields.price'), render: (_, r) => formatSek(r.price) },
            { title: t(`fields.${offer.days.label}`), dataIndex: offer.days.name },
            { title: t('offer.status'), render: (_, r) => <OfferTags r={r} /> },
            { title: t('actions'), render: (_, r) => <OfferActions r={r} kind={kind} onEdit={setEditing} onChanged={reload} calls={calls} /> },
          ]}
        />
      </Card>
      <EditDialog
        open={editing != null}
        title={t(`${kind}.edit`, { name: editing?.name ?? '' })}
        values={editing && values(editing)}
        onClose={(saved) => {
          setEditing(null);
          if (saved) void reload();
        }}
        save={(v) => offer.update(editing!.id, v)}
      >
        {fields}
      </EditDialog>
    </div>
  );
}

const PACKAGES: OfferKind<Package, ReturnType<typeof packageValues>> = {
  kind: 'packages',
  list: listPackages,
  create: createPackage,
  update: updatePackage,
  retire: retirePackage,
  remove: deletePackage,
  terms: (r) => ({ name: r.name, hours: r.hours, price: r.price, duration_days: r.duration_days }),
  values: packageValues,
  days: { name: 'duration_days', label: 'durationDays' },
};

export function PackagesPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('catalogue');
  return (
    <OfferListPage
      titleKey={titleKey}
      testId="packages-page"
      rowTestId="package-row"
      create={{ route: 'packageCreate', label: t('packages.create'), testId: 'package-create-link' }}
      offer={PACKAGES}
      columns={[{ title: t('fields.hours'), render: (_, r) => formatHours(r.hours) }]}
      fields={<PackageFields />}
    />
  );
}

/**
 * A create form for a kind of entry: `fields` with the form; saved, back to the kind's list (`list`). Not public
 * until admin says so: an entry made by mistake does not reach the landing page or customers.
 */
function OfferCreatePage<T extends OfferRow, V>({
  titleKey,
  offer,
  list,
  testId,
  fields,
}: {
  titleKey: string;
  offer: OfferKind<T, V>;
  list: RouteId;
  testId?: string;
  fields: (form: FormInstance) => React.ReactNode;
}) {
  const [form] = Form.useForm();
  const role = useAreaRole();
  return (
    <CatalogueFormPage<Record<string, unknown>>
      titleKey={titleKey}
      form={form}
      save={offer.create}
      done={`${offer.kind}.created`}
      back={pathFor(role, list)}
      testId={testId}
      initialValues={{ public: false, [offer.days.name]: 365 }}
    >
      {fields(form)}
    </CatalogueFormPage>
  );
}

export function PackageCreatePage({ titleKey }: { titleKey: string }) {
  return <OfferCreatePage titleKey={titleKey} offer={PACKAGES} list="packages" testId="package" fields={() => <PackageFields />} />;
}

/** The plan form's fields; `services` for the service choice (hours for the hour-based one, a limit otherwise). */
function PlanFields({ services, form }: { services: Service[]; form: FormInstance }) {
  const { t } = useTranslation('catalogue');
  const serviceId = Form.useWatch('service_id', form) as number | undefined;
  const hourBased = services.find((s) => s.id === serviceId)?.hour_based;
  return (
    <>
      <Form.Item name="name" label={t('fields.name')} rules={[{ required: true, message: t('required') }]}>
        <Input maxLength={NAME_MAX_CHARS} data-testid="plan-name" />
      </Form.Item>
      <Form.Item name="service_id" label={t('fields.service')} rules={[{ required: true, message: t('required') }]}>
        <Select data-testid="plan-service" options={services.map((s) => ({ value: s.id, label: serviceName(s.id, s.name) }))} />
      </Form.Item>
      {hourBased ? (
        <Form.Item name="hours" label={t('fields.hours')} rules={[{ required: true, message: t('required') }]}>
          <Input inputMode="decimal" data-testid="plan-hours" />
        </Form.Item>
      ) : (
        <Form.Item name="limit" label={t('fields.limit')} rules={[{ required: true, message: t('required') }]}>
          <InputNumber min={1} precision={0} data-testid="plan-limit" />
        </Form.Item>
      )}
      {offerTermsFields(t, 'plan', 'expiry_days', 'expiryDays')}
    </>
  );
}

const planValues = (p: ServicePlan) => ({
  name: p.name,
  service_id: p.service_id,
  limit: p.limit ?? undefined,
  hours: p.hours == null ? undefined : formatDecimal(p.hours),
  price: formatDecimal(p.price),
  expiry_days: p.expiry_days,
  public: p.public,
});

/** The plan edit dialog's fields need the dialog's form (the service decides hours or limit). */
function PlanEditFields({ services }: { services: Service[] }) {
  const form = Form.useFormInstance();
  return <PlanFields services={services} form={form} />;
}

const PLANS: OfferKind<ServicePlan, ReturnType<typeof planValues>> = {
  kind: 'plans',
  list: listServicePlans,
  create: createServicePlan,
  update: updateServicePlan,
  retire: retireServicePlan,
  remove: deleteServicePlan,
  terms: (r) => ({ name: r.name, service_id: r.service_id, limit: r.limit, hours: r.hours, price: r.price, expiry_days: r.expiry_days }),
  values: planValues,
  days: { name: 'expiry_days', label: 'expiryDays' },
};

export function ServicePlansPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('catalogue');
  const services = useList(listServices).rows ?? [];
  return (
    <OfferListPage
      titleKey={titleKey}
      testId="service-plans-page"
      rowTestId="plan-row"
      create={{ route: 'servicePlanCreate', label: t('plans.create') }}
      offer={PLANS}
      columns={[
        { title: t('fields.service'), render: (_, r) => serviceName(r.service_id, services.find((s) => s.id === r.service_id)?.name) },
        { title: t('fields.limitOrHours'), render: (_, r) => (r.hours != null ? `${formatHours(r.hours)} h` : r.limit) },
      ]}
      fields={<PlanEditFields services={services} />}
    />
  );
}

export function ServicePlanCreatePage({ titleKey }: { titleKey: string }) {
  const services = useList(listServices).rows ?? [];
  return <OfferCreatePage titleKey={titleKey} offer={PLANS} list="servicePlans" fields={(form) => <PlanFields services={services} form={form} />} />;
}
