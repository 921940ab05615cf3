// One diagnostic: progress while it runs, then summary, risk, each issue with a chart of its
// evidence, and recommendations the analyst can mark applied or dismissed.
import type { DiagnosticIssue, DiagnosticRecommendation } from '../../../shared/ipc';
import { useCall, useCallMutation } from '../api/hooks';
import { ErrorState, Loading, PageHeader, RiskBadge, StatusPill } from '../components/ui';
import { date, dateTime, integer, money, percent, ratio, titleCase } from '../format';
import { href } from '../router';
import { Evidence } from './diagnostic/Evidence';
import { HistoryList, SinceLast } from './diagnostic/History';
import { GoalChecks } from './goals/GoalChecks';
import { AdsManagerChanges, MetaRecommendationList } from './DiagnosticExtras';

/** Where an issue's entity lives: the ad or ad set row of its campaign, the campaign, or the account. */
function entityLink(
  issue: DiagnosticIssue,
  d: { accountId: string; campaignId: string | null },
): { path: string; label: string } | null {
  const campaignId = issue.campaignId ?? d.campaignId;
  if (issue.affectedEntity.type === 'account')
    return { path: `/accounts/${d.accountId}`, label: 'Open account' };
  if (!campaignId) return null;
  if (issue.type === 'CREATIVE_FATIGUE' && issue.evidence.ad)
    return {
      path: `/campaigns/${campaignId}?focus=${issue.evidence.ad.id}`,
      label: `Open ad ${issue.evidence.ad.name}`,
    };
  if (issue.affectedEntity.type === 'adSet')
    return {
      path: `/campaigns/${campaignId}?focus=${issue.affectedEntity.id}`,
      label: `Open ad set ${issue.affectedEntity.name}`,
    };
  return { path: `/campaigns/${campaignId}`, label: `Open campaign ${issue.affectedEntity.name}` };
}

function Recommendation(props: {
  rec: DiagnosticRecommendation;
  diagnosticId: string;
  feedback: 'applied' | 'dismissed' | undefined;
  issues: DiagnosticIssue[];
  currency: string;
}): React.JSX.Element {
  const send = useCallMutation('diagnostics.feedback', ['diagnostics']);
  const { rec } = props;
  const related = props.issues.filter((i) => rec.relatedIssues.includes(i.id));
  const current = send.variables?.feedback ?? props.feedback;
  return (
    <li className={`rec${current ? ` rec-${current}` : ''}`}>
      <div className="rec-head">
        <span className="rec-priority" aria-label={`Priority ${rec.priority}`}>
          {rec.priority}
        </span>
        <strong>{rec.action}</strong>
        <RiskBadge level={rec.riskLevel} />
      </div>
      <p>{rec.rationale}</p>
      <p className="muted">Expected impact: {rec.expectedImpact}</p>
      <AdsManagerChanges changes={rec.changes} currency={props.currency} />
      {related.length > 0 ? (
        <p className="muted small">Addresses: {related.map((i) => i.title).join('; ')}</p>
      ) : null}
      <div className="rec-actions" role="group" aria-label={`Feedback on recommendation ${rec.priority}`}>
        <button
          type="button"
          className="button"
          aria-pressed={current === 'applied'}
          disabled={send.isPending}
          onClick={() =>
            send.mutate({ diagnosticId: props.diagnosticId, recommendationId: rec.id, feedback: 'applied' })
          }
        >
          {current === 'applied' ? '✓ Applied' : 'Mark applied'}
        </button>
        <button
          type="button"
          className="button subtle"
          aria-pressed={current === 'dismissed'}
          disabled={send.isPending}
          onClick={() =>
            send.mutate({ diagnosticId: props.diagnosticId, recommendationId: rec.id, feedback: 'dismissed' })
          }
        >
          {current === 'dismissed' ? 'Dismissed' : 'Dismiss'}
        </button>
        {send.error ? <span className="form-error">{send.error.message}</span> : null}
      </div>
    </li>
  );
}

export default function DiagnosticDetail(props: { diagnosticId: string }): React.JSX.Element {
  const accounts = useCall('accounts.list', {});
  const detail = useCall(
    'diagnostics.get',
    { id: props.diagnosticId },
    // Events refresh it too; polling is the fallback while it runs.
    {
      refetchInterval: (query) =>
        query.state.data && ['pending', 'running'].includes(query.state.data.status) ? 1500 : false,
    },
  );
  const completed = detail.data?.status === 'completed';
  const evidence = useCall('diagnostics.evidence', { id: props.diagnosticId }, { enabled: completed });
  if (detail.isPending) return <Loading label="Loading diagnostic…" />;
  if (detail.isError) return <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />;
  const d = detail.data;
  const currency = d.metrics?.currency ?? 'USD';
  const accountName = d.accountName || accounts.data?.find((a) => a.id === d.accountId)?.name;
  const title = d.campaignName ?? (accountName ? `${accountName} (whole account)` : 'Whole account');
  const crumbs = (
    <nav className="breadcrumb" aria-label="Breadcrumb">
      <a href={href('/diagnostics')}>Diagnostics</a> <span aria-hidden="true">/</span> <span>{title}</span>
    </nav>
  );
  if (d.status === 'pending' || d.status === 'running') {
    return (
      <>
        {crumbs}
        <PageHeader title={title} subtitle={`${date(d.dateRange.from)} – ${date(d.dateRange.to)}`} />
        <div
          className="panel running-panel"
          role="status"
          aria-live="polite"
          data-testid="diagnostic-running"
        >
          <span className="spinner" aria-hidden="true" />
          <div>
            <strong>{d.status === 'pending' ? 'Queued…' : 'Analysing delivery, costs and learning…'}</strong>
            <p className="muted">This usually takes a few seconds. The page updates by itself.</p>
          </div>
        </div>
      </>
    );
  }
  if (d.status === 'failed') {
    return (
      <>
        {crumbs}
        <PageHeader title={title} />
        <div className="banner banner-bad" role="alert">
          The diagnostic failed: {d.error?.message ?? 'unknown reason'}.
        </div>
      </>
    );
  }
  return (
    <>
      {crumbs}
      <PageHeader
        title={title}
        subtitle={
          <>
            <StatusPill status={d.status} /> {date(d.dateRange.from)} – {date(d.dateRange.to)} · completed{' '}
            {dateTime(d.completedAt)}
            {d.processingTimeMs !== null
              ? d.processingTimeMs < 100
                ? ' in under 0.1 s'
                : ` in ${(d.processingTimeMs / 1000).toFixed(1)} s`
              : ''}
            {d.campaignId ? (
              <>
                {' · '}
                <a href={href(`/campaigns/${d.campaignId}`)}>Open campaign</a>
              </>
            ) : null}
          </>
        }
        actions={
          <span className="risk-heading">
            Risk <RiskBadge level={d.riskLevel} />
          </span>
        }
      />
      <section className="panel summary-panel" aria-label="Summary">
        <p className="summary">{d.summary}</p>
        {d.metrics ? (
          <dl className="kpis compact">
            <div>
              <dt>Spend</dt>
              <dd>{money(d.metrics.spend, currency)}</dd>
            </div>
            <div>
              <dt>Conversions</dt>
              <dd>{integer(d.metrics.conversions)}</dd>
            </div>
            <div>
              <dt>CPA</dt>
              <dd>{money(d.metrics.cpa, currency)}</dd>
            </div>
            <div>
              <dt>ROAS</dt>
              <dd>{ratio(d.metrics.roas)}</dd>
            </div>
            <div>
              <dt>CTR</dt>
              <dd>{percent(d.metrics.ctr)}</dd>
            </div>
            <div>
              <dt>CPM</dt>
              <dd>{money(d.metrics.cpm, currency)}</dd>
            </div>
          </dl>
        ) : null}
        {d.andromedaContext ? (
          <p className="muted small">
            Andromeda: risk appetite {d.andromedaContext.riskAppetite.toLowerCase()}, focus{' '}
            {d.andromedaContext.focusMetric}. {d.andromedaContext.adaptations}
          </p>
        ) : null}
      </section>
      {d.goalChecks ? <GoalChecks checks={d.goalChecks} currency={currency} /> : null}
      <section className="section" aria-labelledby="issues-title">
        <h2 id="issues-title">Issues ({d.issues.length})</h2>
        {d.issues.length === 0 ? (
          <p className="muted">No issue found in this period.</p>
        ) : (
          <ol className="issue-list">
            {d.issues.map((issue) => (
              <li key={issue.id} className="issue">
                <div className="issue-head">
                  <RiskBadge level={issue.severity} />
                  <h3>{issue.title}</h3>
                  <span className="muted small">
                    {titleCase(issue.type)} ·{' '}
                    {issue.affectedEntity.type === 'adSet'
                      ? 'Ad set'
                      : issue.affectedEntity.type === 'account'
                        ? 'Account'
                        : 'Campaign'}{' '}
                    {issue.affectedEntity.name}
                  </span>
                </div>
                <p>{issue.description}</p>
                {(() => {
                  const link = entityLink(issue, d);
                  return link ? (
                    <p className="small">
                      <a href={href(link.path)}>{link.label}</a>
                    </p>
                  ) : null;
                })()}
                <Evidence issue={issue} currency={currency} series={evidence.data} />
              </li>
            ))}
          </ol>
        )}
      </section>
      <SinceLast diagnosticId={d.id} />
      <section className="section" aria-labelledby="recs-title">
        <h2 id="recs-title">Recommendations</h2>
        <ol className="rec-list">
          {d.recommendations.map((rec) => (
            <Recommendation
              key={rec.id}
              rec={rec}
              diagnosticId={d.id}
              feedback={d.feedback[rec.id]}
              issues={d.issues}
              currency={currency}
            />
          ))}
        </ol>
      </section>
      <MetaRecommendationList meta={d.metaRecommendations} />
      <HistoryList diagnosticId={d.id} accountId={d.accountId} campaignId={d.campaignId} />
    </>
  );
}
