import { Alert, Button, Card, Progress, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import Link from '../../components/Link';
import { exportConflictAudit, searchConflicts } from '../../api/conflict';
import { serverMessages } from '../../api/formErrors';
import type { ConflictHit, PartyKind } from '../../types/conflict';
import Loading from '../../components/Loading';
import { formatDateTime } from '../../format';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import ConflictSearch from '../../components/ConflictSearch';
import { openCustomerDetails } from '../../store/customerDetails';
import PageTitle from '../../components/PageTitle';

const KIND_COLOURS: Record<PartyKind, string> = {
  customer: 'blue',
  company: 'geekblue',
  contact_person: 'purple',
  counterpart: 'volcano',
};

/** Score as a whole percentage, the way the result list shows it. */
export function scorePercent(score: number): number {
  return Math.round(Math.max(0, Math.min(1, score)) * 100);
}

/**
 * interest/?search=… : the fuzzy conflict-of-interest result page (admin and
 * lawyers). Each hit shows what it is, what matched and a score, best first.
 */
/** The colour of a match score: the closer the match, the stronger the warning. */
export function scoreColour(percent: number): string {
  if (percent >= 80) return '#cf1322';
  if (percent >= 50) return '#d46b08';
  return '#8c8c8c';
}

export default function ConflictResults({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('conflict');
  const [params] = useSearchParams();
  const role = useAreaRole();
  const query = (params.get('search') ?? '').trim();
  const [state, setState] = useState<{ loading: boolean; hits: ConflictHit[] | null; count: number; at?: string; error?: string[] }>({
    loading: false,
    hits: null,
    count: 0,
  });
  const [exporting, setExporting] = useState(false);

  useEffect(() => {
    if (!query) {
      setState({ loading: false, hits: null, count: 0 });
      return;
    }
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    searchConflicts(query)
      .then((r) => live && setState({ loading: false, hits: r.results, count: r.count, at: r.searched_at }))
      .catch((err) => live && setState({ loading: false, hits: null, count: 0, error: serverMessages(err) }));
    return () => {
      live = false;
    };
  }, [query]);

  return (
    <div className="page" data-testid="conflict-results-page">
      <PageTitle titleKey={titleKey} />
      <Card>
        <Space orientation="vertical" style={{ width: '100%' }} size="middle">
          <ConflictSearch key={query} role={role} initial={query} />
          {!query && <Alert type="info" showIcon title={t('enterQuery')} />}
          {role === 'admin' && (
            <div>
              <Button
                data-testid="conflict-audit-export"
                loading={exporting}
                onClick={() => {
                  setExporting(true);
                  exportConflictAudit()
                    .catch(() => undefined)
                    .finally(() => setExporting(false));
                }}
              >
                {t('exportAudit')}
              </Button>
              {/* The searches are events of the audit trail: there with the rest, by user and period. */}
              <Link to={pathFor(role, 'audit', {}, { action: 'conflict_search' })} style={{ marginLeft: 16 }} data-testid="conflict-audit-trail">
                {t('showInAudit')}
              </Link>
            </div>
          )}
          {query && !state.loading && state.error && (
            <Alert type="warning" showIcon data-testid="conflict-error" title={state.error.join(' ')} />
          )}
          {query && state.loading && <Loading />}
          {query && !state.loading && state.hits && (
            <>
              <Typography.Text data-testid="conflict-count">{t('count', { count: state.count, query })}</Typography.Text>
              <div data-testid="conflict-results" className="conflict-results">
                {state.hits.length === 0 && (
                  <Alert
                    type="success"
                    showIcon
                    data-testid="conflict-none"
                    title={t('noneFound', { query })}
                    description={t('noneFoundAt', { at: state.at ? formatDateTime(state.at) : '' })}
                  />
                )}
                {state.hits.map((hit) => (
                  <Card size="small" key={`${hit.party.kind}-${hit.party.uid}`} data-testid="conflict-hit">
                    <div style={{ display: 'flex', justifyContent: 'space-between', gap: 16 }}>
                      <Space orientation="vertical" size={0}>
                        <Space wrap>
                          <Typography.Text strong data-testid="conflict-hit-name">
                            {hit.party.name}
                          </Typography.Text>
                          <Tag color={KIND_COLOURS[hit.party.kind]}>{t(`kind.${hit.party.kind}`)}</Tag>
                          {hit.identity_match && <Tag color="red">{t('identityMatch')}</Tag>}
                        </Space>
                        {hit.party.identity_number && (
                          <span>
                            {t('identityNumber')}: {hit.party.identity_number}
                          </span>
                        )}
                        {hit.words.length > 0 && (
                          <span data-testid="conflict-hit-words">
                            {t('matched')}:{' '}
                            {hit.words.map((w) => `${w.query} ≈ ${w.matched} (${scorePercent(w.score)}%)`).join(', ')}
                          </span>
                        )}
                        {hit.reasons.some((r) => r !== 'same_number') && (
                          <span data-testid="conflict-hit-reasons">
                            {t('why')}:{' '}
                            {hit.reasons
                              .filter((r) => r !== 'same_number')
                              .map((r) => t(`reason.${r}`))
                              .join(', ')}
                          </span>
                        )}
                        {hit.party.context && <span>{hit.party.context}</span>}
                        {hit.party.customer_uid && (
                          <Button
                            type="link"
                            style={{ padding: 0 }}
                            data-testid="conflict-hit-customer"
                            onClick={() => openCustomerDetails(hit.party.customer_uid as string)}
                          >
                            {t('customerDetails')}
                          </Button>
                        )}
                      </Space>
                      <div style={{ width: 120 }} aria-label={t('score')}>
                        {/* A high score is a warning for a conflict check: never antd's green 'done' tick. */}
                        <Progress
                          percent={scorePercent(hit.score)}
                          size="small"
                          status="normal"
                          strokeColor={scoreColour(scorePercent(hit.score))}
                          format={(p) => `${p}%`}
                          aria-label={t('score')}
                          data-testid="conflict-hit-score"
                        />
                      </div>
                    </div>
                  </Card>
                ))}
              </div>
            </>
          )}
        </Space>
      </Card>
    </div>
  );
}
