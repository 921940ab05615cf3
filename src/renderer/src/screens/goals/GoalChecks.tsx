// Each judged campaign of a diagnostic against its goal: the goal next to the actual, the campaign's
// own baseline and the account's median, and "not enough data" with what is missing.
import type { GoalCheck } from '../../../../shared/api/diagnostics';
import { money, ratio } from '../../format';
import { href } from '../../router';

const STATUS: Record<GoalCheck['status'], { label: string; className: string }> = {
  MET: { label: 'Meets goal', className: 'pill pill-ok' },
  MISSED: { label: 'Below goal', className: 'pill pill-bad' },
  NOT_ENOUGH_DATA: { label: 'Not enough data', className: 'pill pill-muted' },
  NO_GOAL: { label: 'No goal', className: 'pill pill-muted' },
};

export function metricValue(metric: 'CPA' | 'ROAS', value: number | null, currency: string): string {
  return metric === 'CPA' ? money(value, currency) : ratio(value);
}

export function goalLabel(goal: NonNullable<GoalCheck['goal']>, currency: string): string {
  const what =
    goal.kind === 'CPA'
      ? `CPA ${money(goal.target, currency)}`
      : goal.target === 1
        ? 'break-even'
        : `ROAS ${ratio(goal.target)}`;
  const from = goal.source === 'campaign' ? 'own' : goal.source === 'account' ? 'account' : 'implied';
  return `${what} (${from})`;
}

export function GoalChecks(props: { checks: GoalCheck[]; currency: string }): React.JSX.Element | null {
  const { checks, currency } = props;
  if (checks.length === 0) return null;
  const rows = [...checks].sort(
    (a, b) => b.moneyAtRisk - a.moneyAtRisk || a.campaignName.localeCompare(b.campaignName),
  );
  return (
    <section className="section" aria-labelledby="goals-title">
      <h2 id="goals-title">Against the goal</h2>
      <div className="table-wrap">
        <table className="data-table static goal-checks">
          <thead>
            <tr>
              <th scope="col">Campaign</th>
              <th scope="col">Goal</th>
              <th scope="col">Actual</th>
              <th scope="col">Own baseline</th>
              <th scope="col">Account median</th>
              <th scope="col">Money at risk</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.campaignId}>
                <td>
                  <a href={href(`/campaigns/${c.campaignId}`)}>{c.campaignName}</a>
                </td>
                <td>{c.goal ? goalLabel(c.goal, currency) : <span className="muted">none</span>}</td>
                <td>
                  {c.metric} {metricValue(c.metric, c.actual, currency)}
                  <span className="muted small"> · {c.results} results</span>
                </td>
                <td>{metricValue(c.metric, c.baseline, currency)}</td>
                <td>{metricValue(c.metric, c.accountMedian, currency)}</td>
                <td>
                  {c.moneyAtRisk > 0 ? money(c.moneyAtRisk, currency) : <span className="muted">—</span>}
                </td>
                <td>
                  <span className={STATUS[c.status].className}>{STATUS[c.status].label}</span>
                  {c.notEnoughData ? <div className="muted small">{c.notEnoughData}</div> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
