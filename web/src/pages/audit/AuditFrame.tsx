import { Card, DatePicker, Typography } from 'antd';
import type { ReactNode } from 'react';
import dayjs from '../../i18n/dates';
import type { CursorList } from '../../api/paging';
import CursorPager from '../../components/CursorPager';
import type { AuditEvent } from '../../types/audit';

/** A period to narrow the trail to (days, YYYY-MM-DD); both ends or neither. */
export interface Period {
  from?: string;
  to?: string;
}

/** The period picker of both audit pages: whole days up to today. */
export function PeriodPicker({ value, onChange, testId, maxWidth }: { value: Period; onChange: (p: Period) => void; testId: string; maxWidth?: number }) {
  return (
    <DatePicker.RangePicker
      value={value.from && value.to ? [dayjs(value.from), dayjs(value.to)] : null}
      onChange={(r) => onChange(r && r[0] && r[1] ? { from: r[0].format('YYYY-MM-DD'), to: r[1].format('YYYY-MM-DD') } : { from: undefined, to: undefined })}
      disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
      data-testid={testId}
      style={{ width: '100%', maxWidth }}
    />
  );
}

/** The shell of both audit pages: title, what the trail holds, then in one card the filters, the table and its pager. */
export function AuditFrame({
  testId,
  title,
  intro,
  filters,
  table,
  list,
  pagerTestId,
}: {
  testId: string;
  title: ReactNode;
  intro: ReactNode;
  filters: ReactNode;
  table: ReactNode;
  list: CursorList<AuditEvent>;
  pagerTestId: string;
}) {
  return (
    <div className="page" data-testid={testId}>
      <Typography.Title level={2} data-testid="page-title">
        {title}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{intro}</Typography.Paragraph>
      <Card>
        {filters}
        {table}
        <div style={{ marginTop: 16 }}>
          <CursorPager list={list} testId={pagerTestId} />
        </div>
      </Card>
    </div>
  );
}
