import { Button, Card, Empty, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useList } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import { addCaseNote, caseNotes } from '../../api/collaboration';
import { applyServerErrors } from '../../api/formErrors';
import type { Role } from '../../auth/roles';
import MessageAlert from '../../components/MessageAlert';
import { useSession } from '../../store/session';
import type { CaseNote } from '../../types/collaboration';
import type { Case } from '../../types/cases';
import { formatDateTime } from '../../format';

/** Who sees a case's internal notes (spec §3 note; the server's SeeInternal): staff and the case's own lawyer, never the customer side. */
export function seesNotes(role: Role, c: Pick<Case, 'lawyer'>, me: string | null | undefined): boolean {
  if (role === 'admin' || role === 'sales') return true;
  return role === 'lawyer' && !!me && c.lawyer === me;
}

/** The internal notes card of cases/details/{id}: list (oldest first) and add. */
export default function CaseNotes({ c, role }: { c: Pick<Case, 'uid' | 'lawyer'>; role: Role }) {
  const me = useSession((s) => s.user?.uid);
  if (!seesNotes(role, c, me)) return null;
  return <NotesCard caseUid={c.uid} />;
}

function NotesCard({ caseUid }: { caseUid: string }) {
  const { t } = useTranslation('collaboration');
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ note: string }>();

  const { rows: notes, set: setNotes } = useList<CaseNote>(() => caseNotes(caseUid), caseUid);

  const add = async ({ note }: { note: string }) => {
    setBusy(true);
    setErrors([]);
    try {
      const n = await addCaseNote(caseUid, note);
      setNotes((xs) => [...(xs ?? []), n]);
      form.resetFields();
    } catch (err) {
      setErrors(applyServerErrors(form, err, ['note']));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('notes.title')} style={{ marginTop: 16 }} loading={notes === null} data-testid="case-notes">
      <Typography.Paragraph type="secondary">{t('notes.hint')}</Typography.Paragraph>
      {notes?.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notes.empty')} />}
      <div data-testid="case-notes-list">
        {notes?.map((n, i) => (
          <div key={`${n.at}-${i}`} className="case-note" data-testid="case-note" style={{ borderBottom: '1px solid #f0f0f0', padding: '8px 0' }}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {n.by_name} · {formatDateTime(n.at)}
            </Typography.Text>
            <div style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{n.note}</div>
          </div>
        ))}
      </div>
      <Form form={form} onFinish={add} style={{ marginTop: 12 }} data-testid="case-note-form">
        <Form.Item name="note" rules={[{ required: true, whitespace: true, message: t('notes.required') }]} style={{ marginBottom: 8 }}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} placeholder={t('notes.placeholder')} aria-label={t('notes.placeholder')} data-testid="case-note-input" />
        </Form.Item>
        <MessageAlert messages={errors} testId="case-note-errors" />
        <Button htmlType="submit" loading={busy} data-testid="case-note-add">
          {t('notes.add')}
        </Button>
      </Form>
    </Card>
  );
}
