// One diagnostic: progress while it runs, then summary, risk, each issue with a chart of its
// evidence, and recommendations the analyst can mark applied or dismissed.
import type { DiagnosticIssue, DiagnosticRecommendation } from '../../../shared/ipc';
import { useCall, useCallMutation } from '../api/hooks';
import { COLORS, TimeChart } from '../components/charts';
import { ErrorState, Loading, PageHeader, ProgressBar, RiskBadge, StatusPill } from '../components/ui';
import { date, dateTime, integer, money, percent, ratio, titleCase } from '../format';
import { href } from '../router';
import { GoalChecks, goalLabel, metricValue } from './goals/GoalChecks';

const byDay = (values: number[], key: string): Array<Record<string, number | string>> =>
  values.map((v, i) => ({ day: `Day ${i + 1}`, [key]: v }));

function zip(
  a: number[],
  aKey: string,
  b: number[],
  bKey: string,
): Array<Record<string, number | string | null>> {
  const n = Math.max(a.length, b.length);
  return Array.from({ length: n }, (_, i) => ({
    day: `Day ${i + 1}`,
    [aKey]: a[i] ?? null,
    [bKey]: b[i] ?? null,
  }));
}

function Evidence(props: { issue: DiagnosticIssue; currency: string }): React.JSX.Element {
  const { issue, currency } = props;
  const common = { xKey: 'day', xIsDate: false, height: 200 } as const;
  switch (issue.type) {
    case 'CREATIVE_FATIGUE':
      return (
        <TimeChart
          {...common}
          title="Frequency against CTR"
          data={zip(issue.evidence.frequencyTrend, 'frequency', issue.evidence.ctrTrend, 'ctr')}
          series={[
            { key: 'frequency', label: 'Frequency', color: COLORS.warn, format: (v) => v.toFixed(2) },
            {
              key: 'ctr',
              label: 'CTR %',
              color: COLORS.primary,
              axis: 'right',
              format: (v) => `${v.toFixed(2)}%`,
            },
          ]}
        />
      );
    case 'CPA_DEGRADATION':
      return (
        <>
          <p className="evidence-line">
            CPA {money(issue.evidence.actualCpa, currency)} against a target of{' '}
            {money(issue.evidence.targetCpa, currency)}
            {issue.evidence.targetSource ? (
              <span className="muted"> ({issue.evidence.targetSource.replace('_', ' ')})</span>
            ) : null}
          </p>
          <TimeChart
            {...common}
            title="CPA against target"
            data={byDay(issue.evidence.cpaTrend, 'cpa')}
            series={[{ key: 'cpa', label: 'CPA', color: COLORS.warn, format: (v) => money(v, currency) }]}
            reference={{ value: issue.evidence.targetCpa, label: 'Target' }}
          />
        </>
      );
    case 'LEARNING_PHASE_STALL': {
      const e = issue.evidence;
      return (
        <div className="learning-evidence">
          <p className="evidence-line">
            {integer(e.conversionsInLearning)} of {integer(e.requiredConversions)} conversions needed to exit
            learning, after {e.daysInLearning} days
            {e.learningStatus ? ` (${titleCase(e.learningStatus)})` : ''}.
          </p>
          <ProgressBar
            percent={(e.conversionsInLearning / Math.max(1, e.requiredConversions)) * 100}
            label="Learning progress"
          />
        </div>
      );
    }
    case 'AUCTION_OVERLAP':
      return (
        <>
          <p className="evidence-line">
            {percent(issue.evidence.targetingOverlap * 100, 0)} targeting overlap with{' '}
            {issue.evidence.overlappingAdSets.map((s) => s.name).join(', ') || 'other ad sets'}.
          </p>
          <TimeChart
            {...common}
            title="CPM trend"
            data={byDay(issue.evidence.cpmTrend, 'cpm')}
            series={[{ key: 'cpm', label: 'CPM', color: COLORS.bad, format: (v) => money(v, currency) }]}
          />
        </>
      );
    case 'PACING_ISSUE':
      return (
        <>
          <p className="evidence-line">
            {issue.evidence.direction === 'UNDER' ? 'Under-spending' : 'Over-spending'}:{' '}
            {money(issue.evidence.avgDailySpend, currency)} a day against a{' '}
            {money(issue.evidence.dailyBudget, currency)} budget (
            {percent(issue.evidence.pacingRate * 100, 0)}).
          </p>
          <TimeChart
            {...common}
            title="Daily spend against budget"
            data={byDay(issue.evidence.spendTrend, 'spend')}
            series={[
              {
                key: 'spend',
                label: 'Spend',
                color: COLORS.primary,
                kind: 'bar',
                format: (v) => money(v, currency, 0),
              },
            ]}
            reference={{ value: issue.evidence.dailyBudget, label: 'Daily budget' }}
          />
        </>
      );
    case 'AUDIENCE_SATURATION':
      return (
        <>
          <p className="evidence-line">
            New people are {percent(issue.evidence.newReachShare * 100, 0)} of reach.
          </p>
          <TimeChart
            {...common}
            title="Frequency against reach"
            data={zip(issue.evidence.frequencyTrend, 'frequency', issue.evidence.reachTrend, 'reach')}
            series={[
              { key: 'frequency', label: 'Frequency', color: COLORS.warn, format: (v) => v.toFixed(2) },
              {
                key: 'reach',
                label: 'Reach',
                color: COLORS.primary,
                axis: 'right',
                format: (v) => integer(v),
              },
            ]}
          />
        </>
      );
    case 'DELIVERY_BLOCKED':
      return (
        <ul className="evidence-line">
          {issue.evidence.blockers.map((b, i) => (
            <li key={`${b.kind}-${i}`}>
              {b.ad ? <strong>{b.ad.name}: </strong> : null}
              {b.reason} — {b.message}
            </li>
          ))}
        </ul>
      );
    case 'GOAL_MISSED': {
      const e = issue.evidence;
      const reached =
        e.actual === null || e.actual <= 0
          ? 0
          : e.goal.kind === 'ROAS'
            ? e.actual / e.goal.target
            : e.goal.target / e.actual;
      return (
        <div className="learning-evidence">
          <ProgressBar percent={Math.min(100, reached * 100)} label="Actual against the goal" />
          <p className="evidence-line">
            Goal {goalLabel(e.goal, currency)}, actual {e.goal.kind}{' '}
            {metricValue(e.goal.kind, e.actual, currency)} on {integer(e.results)} results (
            {date(e.dateRange.from)}–{date(e.dateRange.to)}): {percent(e.gap * 100, 0)} short,{' '}
            {money(e.moneyAtRisk, currency)} of spend did not earn the goal. Own baseline{' '}
            {metricValue(e.goal.kind, e.baseline, currency)}, account median{' '}
            {metricValue(e.goal.kind, e.accountMedian, currency)}.
          </p>
        </div>
      );
    }
    default:
      return <></>;
  }
}

function Recommendation(props: {
  rec: DiagnosticRecommendation;
  diagnosticId: string;
  feedback: 'applied' | 'dismissed' | undefined;
  issues: DiagnosticIssue[];
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
  if (detail.isPending) return <Loading label="Loading diagnostic…" />;
  if (detail.isError) return <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />;
  const d = detail.data;
  const currency = d.metrics?.currency ?? 'USD';
  const accountName = accounts.data?.find((a) => a.id === d.accountId)?.name;
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
                <Evidence issue={issue} currency={currency} />
              </li>
            ))}
          </ol>
        )}
      </section>
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
            />
          ))}
        </ol>
      </section>
    </>
  );
}
