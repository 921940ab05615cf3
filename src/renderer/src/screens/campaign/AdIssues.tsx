// Ads that cannot deliver (disapproved) or deliver with issues, with Meta's own error messages.
import type { AdIssue, DeliveryIssues } from '../../../../shared/api/campaigns';
import { StatusPill } from '../../components/ui';

export function AdIssues(props: {
  summary: DeliveryIssues;
  issues: readonly AdIssue[];
}): React.JSX.Element | null {
  const { summary, issues } = props;
  if (issues.length === 0) return null;
  return (
    <section aria-labelledby="ad-issues-title" className="section">
      <h2 id="ad-issues-title">
        Delivery issues ({summary.disapprovedAds} disapproved, {summary.adsWithIssues} with issues)
      </h2>
      <ul className="issue-list">
        {issues.map((i, n) => (
          <li key={`${i.adId}-${n}`}>
            <StatusPill status={i.effectiveStatus} /> <strong>{i.adName}</strong>: {i.summary}
            {i.message ? <span className="muted"> — {i.message}</span> : null}
            {i.errorCode !== null ? <span className="muted small"> (error {i.errorCode})</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
