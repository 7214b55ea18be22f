import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { totalHourRules } from './status';

/** The additional hours' total (a new entry and an entry's edit): required, at least 0,01, comma or dot decimal. */
export default function TotalHourItem({ width, testId }: { width: number; testId: string }) {
  const { t } = useTranslation('caseHours');
  return (
    <Form.Item name="total_hour" label={t('fields.total_hour')} rules={totalHourRules(t)}>
      <Input inputMode="decimal" placeholder="1,5" style={{ width }} data-testid={testId} />
    </Form.Item>
  );
}
