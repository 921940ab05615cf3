// A diagnostic in its history: what changed since the previous diagnostic of the same campaign (or of
// the whole account), and the past diagnostics with their risk over time.
import type { IssueRef } from '../../../../shared/api/diagnostic-history';
import { useCall } from '../../api/hooks';
import { COLORS, TimeChart } from '../../components/charts';
import { RiskBadge } from '../../components/ui';
import { dateTime } from '../../format';
import { href } from '../../router';

const RISK_RANK: Record<string, number> = { LOW: 1, MEDIUM: 2, HIGH: 3, CRITICAL: 4 };
const RISK_NAME = ['', 'Low', 'Medium', 'High', 'Critical'];

function Refs(props: {
  title: string;
  items: readonly (IssueRef & { previousSeverity?: string })[];
}): React.JSX.Element | null {
  if (props.items.length === 0) return null;
  return (
    <div className="change-group">
      <h3>
        {props.title} ({props.items.length})
      </h3>
      <ul>
        {props.items.map((i) => (
          <li key={`${i.type}-${i.entity.id}-${i.campaignId ?? ''}`}>
            {i.previousSeverity ? (
              <>
                <RiskBadge level={i.previousSeverity} /> →{' '}
              </>
            ) : null}
            <RiskBadge level={i.severity} /> {i.title}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function SinceLast(props: { diagnosticId: string }): React.JSX.Element | null {
  const changes = useCall('diagnostics.changes', { id: props.diagnosticId });
  if (!changes.data) return null;
  const c = changes.data;
  const none =
    c.newIssues.length + c.resolvedIssues.length + c.worsenedIssues.length + c.improvedIssues.length === 0;
  return (
    <section className="section" aria-labelledby="since-title">
      <h2 id="since-title">What changed since the last diagnostic</h2>
      {!c.previous ? (
        <p className="muted">No earlier diagnostic of the same scope to compare with.</p>
      ) : (
        <>
          <p className="muted small inline-links">
            Compared with{' '}
            <a href={href(`/diagnostics/${c.previous.id}`)}>
              the diagnostic of {dateTime(c.previous.completedAt)}
            </a>{' '}
            (risk <RiskBadge level={c.previous.riskLevel} />
            ).
          </p>
          {none ? <p>Same issues at the same severity.</p> : null}
          <div className="change-groups">
            <Refs title="New" items={c.newIssues} />
            <Refs title="Worse" items={c.worsenedIssues} />
            <Refs title="Better" items={c.improvedIssues} />
            <Refs title="Resolved" items={c.resolvedIssues} />
          </div>
        </>
      )}
    </section>
  );
}

export function HistoryList(props: {
  diagnosticId: string;
  accountId: string;
  campaignId: string | null;
}): React.JSX.Element | null {
  const history = useCall(
    'diagnostics.history',
    props.campaignId ? { campaignId: props.campaignId } : { accountId: props.accountId },
  );
  if (!history.data || history.data.items.length === 0) return null;
  const items = history.data.items;
  const points = [...items]
    .reverse()
    .map((h) => ({ at: dateTime(h.completedAt), risk: RISK_RANK[h.riskLevel ?? ''] ?? 0 }));
  return (
    <section className="section" aria-labelledby="history-title">
      <h2 id="history-title">Diagnostic history ({items.length})</h2>
      {items.length > 1 ? (
        <TimeChart
          title="Risk over time"
          data={points}
          xKey="at"
          xIsDate={false}
          height={160}
          series={[
            { key: 'risk', label: 'Risk', color: COLORS.bad, format: (v) => RISK_NAME[Math.round(v)] ?? '' },
          ]}
        />
      ) : null}
      <div className="table-wrap">
        <table className="data-table static" aria-label="Diagnostic history">
          <thead>
            <tr>
              <th scope="col">Completed</th>
              <th scope="col">Risk</th>
              <th scope="col" className="num">
                Issues
              </th>
              <th scope="col">Period</th>
              <th scope="col">Started by</th>
            </tr>
          </thead>
          <tbody>
            {items.map((h) => (
              <tr key={h.id} aria-current={h.id === props.diagnosticId ? 'true' : undefined}>
                <td>
                  {h.id === props.diagnosticId ? (
                    <strong>{dateTime(h.completedAt)} (this one)</strong>
                  ) : (
                    <a href={href(`/diagnostics/${h.id}`)}>{dateTime(h.completedAt)}</a>
                  )}
                </td>
                <td>
                  <RiskBadge level={h.riskLevel} />
                </td>
                <td className="num">{h.issuesDetected}</td>
                <td>
                  {h.dateRange.from} – {h.dateRange.to}
                </td>
                <td>{h.trigger === 'automatic' ? 'Automatic (after a sync)' : 'Analyst'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
