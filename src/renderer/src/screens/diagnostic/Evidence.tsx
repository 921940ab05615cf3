// An issue's evidence: the facts in a sentence, and a chart of the entity it names (the ad, the ad set,
// the campaign or the account) day by day, dated in the account's time zone, with the baseline window
// the detectors compared against shaded.
import type { DiagnosticIssue } from '../../../../shared/ipc';
import type { EvidenceSeries } from '../../../../shared/api/diagnostic-history';
import { COLORS, TimeChart, type Series } from '../../components/charts';
import { ProgressBar } from '../../components/ui';
import { date, integer, money, percent, titleCase } from '../../format';
import { goalLabel, metricValue } from '../goals/GoalChecks';

type Entry = EvidenceSeries['issues'][string];

const LEVEL: Record<Entry['level'], string> = {
  ad: 'Ad',
  adSet: 'Ad set',
  campaign: 'Campaign',
  account: 'Account',
};

function chartOf(
  issue: DiagnosticIssue,
  currency: string,
): { title: string; series: Series[]; reference?: { value: number; label: string } } | null {
  const frequency: Series = {
    key: 'frequency',
    label: 'Frequency',
    color: COLORS.warn,
    format: (v) => v.toFixed(2),
  };
  const cpm: Series = { key: 'cpm', label: 'CPM', color: COLORS.bad, format: (v) => money(v, currency) };
  switch (issue.type) {
    case 'CREATIVE_FATIGUE':
      return {
        title: 'Frequency against CTR',
        series: [
          frequency,
          {
            key: 'ctr',
            label: 'CTR %',
            color: COLORS.primary,
            axis: 'right',
            format: (v) => `${v.toFixed(2)}%`,
          },
        ],
      };
    case 'CPA_DEGRADATION':
      return {
        title: 'Cost per result against target',
        series: [
          { key: 'cpa', label: 'Cost per result', color: COLORS.warn, format: (v) => money(v, currency) },
        ],
        reference: { value: issue.evidence.targetCpa, label: 'Target' },
      };
    case 'AUCTION_OVERLAP':
    case 'MARKET_SHIFT':
      return { title: 'CPM per day', series: [cpm] };
    case 'PACING_ISSUE':
      return {
        title: 'Daily spend against budget',
        series: [
          {
            key: 'spend',
            label: 'Spend',
            color: COLORS.primary,
            kind: 'bar',
            format: (v) => money(v, currency, 0),
          },
        ],
        reference: { value: issue.evidence.dailyBudget, label: 'Daily budget' },
      };
    case 'AUDIENCE_SATURATION':
      return {
        title: 'Frequency against reach',
        series: [
          frequency,
          { key: 'reach', label: 'Reach', color: COLORS.primary, axis: 'right', format: (v) => integer(v) },
        ],
      };
    case 'TRACKING_BREAK':
      return {
        title: 'Results per day',
        series: [
          {
            key: 'conversions',
            label: 'Results',
            color: COLORS.primary,
            kind: 'bar',
            format: (v) => integer(v),
          },
        ],
      };
    case 'DELIVERY_BLOCKED':
      return {
        title: 'Daily spend',
        series: [
          {
            key: 'spend',
            label: 'Spend',
            color: COLORS.primary,
            kind: 'bar',
            format: (v) => money(v, currency, 0),
          },
        ],
      };
    default:
      return null;
  }
}

function Facts(props: { issue: DiagnosticIssue; currency: string }): React.JSX.Element | null {
  const { issue, currency } = props;
  switch (issue.type) {
    case 'CPA_DEGRADATION':
      return (
        <p className="evidence-line">
          Cost per result {money(issue.evidence.actualCpa, currency)} against a target of{' '}
          {money(issue.evidence.targetCpa, currency)}
          {issue.evidence.targetSource ? (
            <span className="muted"> ({issue.evidence.targetSource.replace('_', ' ')})</span>
          ) : null}
        </p>
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
        <p className="evidence-line">
          {percent(issue.evidence.targetingOverlap * 100, 0)} targeting overlap with{' '}
          {issue.evidence.overlappingAdSets.map((s) => s.name).join(', ') || 'other ad sets'}.
        </p>
      );
    case 'PACING_ISSUE':
      return (
        <p className="evidence-line">
          {issue.evidence.direction === 'UNDER' ? 'Under-spending' : 'Over-spending'}:{' '}
          {money(issue.evidence.avgDailySpend, currency)} a day against a{' '}
          {money(issue.evidence.dailyBudget, currency)} budget ({percent(issue.evidence.pacingRate * 100, 0)}
          ).
        </p>
      );
    case 'AUDIENCE_SATURATION':
      return (
        <p className="evidence-line">
          New people are {percent(issue.evidence.newReachShare * 100, 0)} of reach.
        </p>
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
      return null;
  }
}

export function Evidence(props: {
  issue: DiagnosticIssue;
  currency: string;
  series: EvidenceSeries | undefined;
}): React.JSX.Element {
  const { issue, currency, series } = props;
  const chart = issue.type === 'LEARNING_PHASE_STALL' ? null : chartOf(issue, currency);
  const entry = series?.issues[issue.id];
  return (
    <>
      <Facts issue={issue} currency={currency} />
      {chart && entry && series ? (
        <TimeChart
          title={`${chart.title} · ${LEVEL[entry.level]} ${entry.entityName} (${series.timezone})`}
          data={entry.days}
          series={chart.series}
          height={200}
          {...(chart.reference ? { reference: chart.reference } : {})}
          shade={{ from: series.baseline.from, to: series.baseline.to, label: 'Baseline' }}
        />
      ) : null}
    </>
  );
}
