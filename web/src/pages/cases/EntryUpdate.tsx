/**
 * What the two entry-update pages share (cases/case-hour/update/{id} and
 * cases/additional_hour/update/{id}, both `?case=<case uid>`): loading the
 * entry with its case, the page frame, and saving or deleting, then back to
 * the case.
 */
import { Alert, Card, type FormInstance } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import Link from '../../components/Link';
import { getCase } from '../../api/cases';
import { useLoad } from '../../api/useList';
import { applyServerErrors } from '../../api/formErrors';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import { useFeedback } from '../../layout/feedback';
import PageTitle from '../../components/PageTitle';

export function useEntryUpdate<T>(load: (caseUid: string, id: string) => Promise<T>) {
  const { t } = useTranslation('caseHours');
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const caseUid = params.get('case') ?? '';
  const role = useAreaRole();
  const navigate = useNavigate();
  const { message } = useFeedback();
  // Without the case in the address there is nothing to read (the frame says the case is missing).
  const read = useLoad(() => Promise.all([load(caseUid, id), getCase(caseUid)]), caseUid ? `${caseUid}\n${id}` : null);
  const entry = read.data?.[0] ?? null;
  const theCase = read.data?.[1] ?? null;
  const failed = read.error;
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);


  const back = pathFor(role, 'caseDetails', { id: caseUid });
  /** Saves; on success says so and returns to the case, else shows the server's errors on `form`. */
  const save = async (form: FormInstance, fields: string[], call: () => Promise<unknown>) => {
    setErrors([]);
    setBusy(true);
    try {
      await call();
      void message.success(t('update.saved'));
      void navigate(back);
    } catch (err) {
      setErrors(applyServerErrors(form, err, fields));
    } finally {
      setBusy(false);
    }
  };
  const remove = async (call: () => Promise<unknown>) => {
    try {
      await call();
      void message.success(t('update.deleted'));
      void navigate(back);
    } catch {
      /* notified by the client */
    }
  };
  return { caseUid, entry, failed, errors, busy, back, save, remove, editable: !!theCase?.can_enter_hours };
}

type EntryUpdateState = Pick<ReturnType<typeof useEntryUpdate>, 'caseUid' | 'entry' | 'failed' | 'back' | 'editable'>;

/** Title, back link, the missing-case and read-only notices around the entry's form. */
export function EntryUpdateFrame({ titleKey, testPrefix, state, children }: { titleKey: string; testPrefix: string; state: EntryUpdateState; children: ReactNode }) {
  const { t } = useTranslation('caseHours');
  const { caseUid, entry, failed, back, editable } = state;
  return (
    <div className="page" data-testid={`${testPrefix}-page`}>
      <PageTitle titleKey={titleKey} />
      <Link to={back} data-testid={`${testPrefix}-back`}>
        {t('update.back')}
      </Link>
      {!caseUid && <Alert type="warning" style={{ marginTop: 16 }} title={t('update.missingCase')} data-testid={`${testPrefix}-missing-case`} />}
      {caseUid && !entry && !failed && <Card loading style={{ marginTop: 16 }} />}
      {entry !== null && (
        <Card style={{ marginTop: 16, maxWidth: 640 }}>
          {!editable && <Alert type="info" style={{ marginBottom: 16 }} title={t('update.readOnly')} data-testid={`${testPrefix}-readonly`} />}
          {children}
        </Card>
      )}
    </div>
  );
}
