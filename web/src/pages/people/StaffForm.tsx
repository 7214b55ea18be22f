import { Button, Form, Input, InputNumber, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { createStaff, getStaff, listKnowledgeSectors, updateStaff } from '../../api/people';
import type { NamedEntry, StaffInput, StaffProfile, StaffRole } from '../../types/people';
import { FormPage, useFormPage, useFormRecord } from '../../components/FormPage';
import { useList } from '../../api/useList';
import { FOLDED_SEARCH } from '../../components/foldedSearch';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import { LawyerRatingsCard } from '../../components/collaboration/Ratings';
import { namedIn } from '../../format';
import { HOURLY_RATE_MIN } from '../../validation/bounds';
import { emailRule, minRule } from '../../validation/formRules';

const FIELDS = [
  'first_name',
  'last_name',
  'email',
  'user_sub_type',
  'company_name',
  'hourly_rate',
  'knowledge_sectors',
  'company_affiliation',
  'description',
  'video_care_url',
] as const;

type Values = Required<Pick<StaffInput, 'first_name' | 'last_name' | 'email'>> & StaffInput;

/** The form's values from a stored profile. */
export function toValues(p: StaffProfile): Values {
  return {
    first_name: p.first_name,
    last_name: p.last_name,
    email: p.email,
    user_sub_type: p.lawyer?.user_sub_type ?? 'internal',
    company_name: p.lawyer?.company_name ?? null,
    hourly_rate: p.lawyer?.hourly_rate_ore != null ? p.lawyer.hourly_rate_ore / 100 : null,
    knowledge_sectors: p.lawyer?.knowledge_sectors ?? [],
    company_affiliation: p.lawyer?.company_affiliation ?? null,
    description: p.lawyer?.description ?? '',
    video_care_url: p.lawyer?.video_care_url ?? null,
  };
}

/**
 * Create or update a lawyer or a sales person (admin). The same rules as the
 * server: names, e-mail; lawyers at least one knowledge sector; an external
 * lawyer a company name and an hourly rate.
 */
export function StaffForm({ titleKey, role }: { titleKey: string; role: StaffRole }) {
  const { t, i18n } = useTranslation('people');
  const params = useParams();
  const uid = params.lawyer_uid ?? params.salesPerson_id ?? null;
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const { submitting, errors, submit } = useFormPage(form, FIELDS);
  const subType = Form.useWatch('user_sub_type', form);
  const isLawyer = role === 'lawyer';
  const area = useAreaRole();
  const listPath = pathFor(area, isLawyer ? (subType === 'external' ? 'lawyersExternal' : 'lawyers') : 'salesPersons');

  const sectors = useList<NamedEntry>(() => (isLawyer ? listKnowledgeSectors() : Promise.resolve([])), String(isLawyer)).rows ?? [];
  const { loading } = useFormRecord(form, () => getStaff(role, uid!), uid && `${role}/${uid}`, toValues);

  const onFinish = (values: Values) =>
    submit(async () => {
      const input: StaffInput = { ...values };
      if (uid) await updateStaff(role, uid, input);
      else await createStaff(role, input);
      navigate(listPath);
    });

  const required = { required: true, message: t('required') };
  return (
    <FormPage
      titleKey={titleKey}
      testId="staff-form"
      errors={errors}
      loading={loading}
      after={isLawyer && uid && <LawyerRatingsCard lawyerUid={uid} />}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        name="staff"
        data-testid="staff-form"
        initialValues={{ user_sub_type: 'internal', knowledge_sectors: [] }}
        onFinish={onFinish}
      >
        <Form.Item name="first_name" label={t('firstName')} rules={[required]}>
          <Input data-testid="staff-first-name" autoComplete="off" />
        </Form.Item>
        <Form.Item name="last_name" label={t('lastName')} rules={[required]}>
          <Input data-testid="staff-last-name" autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="email"
          label={t('email')}
          extra={uid ? t('emailFixed') : t('invitationNote')}
          rules={[required, emailRule(t('invalidEmail'))]}
        >
          <Input data-testid="staff-email" disabled={uid != null} autoComplete="off" />
        </Form.Item>
        {isLawyer && (
          <>
            <Form.Item name="user_sub_type" label={t('lawyerType')}>
              <Radio.Group data-testid="staff-sub-type">
                <Radio value="internal" data-testid="staff-sub-type-internal">
                  {t('internal')}
                </Radio>
                <Radio value="external" data-testid="staff-sub-type-external">
                  {t('external')}
                </Radio>
              </Radio.Group>
            </Form.Item>
            {subType === 'external' && (
              <>
                <Form.Item name="company_name" label={t('companyName')} rules={[required]}>
                  <Input data-testid="staff-company-name" />
                </Form.Item>
                <Form.Item
                  name="hourly_rate"
                  label={t('hourlyRate')}
                  rules={[required, minRule(HOURLY_RATE_MIN, t('invalidRate'))]}
                >
                  <InputNumber<number>
                    data-testid="staff-hourly-rate"
                    min={HOURLY_RATE_MIN}
                    precision={2}
                    decimalSeparator=","
                    suffix="SEK"
                    style={{ width: 220 }}
                  />
                </Form.Item>
              </>
            )}
            <Form.Item
              name="knowledge_sectors"
              label={t('knowledgeSectors')}
              rules={[{ type: 'array', min: 1, required: true, message: t('atLeastOneSector') }]}
            >
              <Select
                mode="multiple"
                data-testid="staff-sectors"
                options={sectors.map((s) => ({ value: s.id, label: namedIn(s, i18n.language) }))}
                showSearch={FOLDED_SEARCH}
                placeholder={t('chooseSectors')}
              />
            </Form.Item>
            <Form.Item name="company_affiliation" label={t('companyAffiliation')}>
              <Input data-testid="staff-affiliation" />
            </Form.Item>
            <Form.Item name="description" label={t('description')}>
              <Input.TextArea rows={3} data-testid="staff-description" />
            </Form.Item>
            <Form.Item name="video_care_url" label={t('videoCareUrl')} rules={[{ type: 'url', message: t('invalidUrl') }]}>
              <Input data-testid="staff-video-url" placeholder="https://" />
            </Form.Item>
          </>
        )}
        <Button type="primary" htmlType="submit" loading={submitting} data-testid="staff-submit">
          {uid ? t('save') : t('create')}
        </Button>
      </Form>
    </FormPage>
  );
}

export function LawyerForm({ titleKey }: { titleKey: string }) {
  return <StaffForm titleKey={titleKey} role="lawyer" />;
}
export function SalesPersonForm({ titleKey }: { titleKey: string }) {
  return <StaffForm titleKey={titleKey} role="sales_person" />;
}
