// Beside our recommendations: the Ads Manager edits each one makes (level, object, field, from → to),
// and Meta's own recommendations for the account (its opportunity score), as last synced.
import type { AdsManagerChange, MetaRecommendations } from '../../../shared/api/diagnostics';
import { money } from '../format';

const LEVELS: Record<AdsManagerChange['level'], string> = {
  account: 'Account',
  campaign: 'Campaign',
  adSet: 'Ad set',
  ad: 'Ad',
};

const FIELDS: Record<string, string> = {
  daily_budget: 'Daily budget',
  daily_spend_cap: 'Ad set spending limit (daily maximum)',
  bid_amount: 'Bid / cost cap',
  targeting: 'Audience',
  advantage_audience: 'Advantage+ audience',
  excluded_audiences: 'Excluded audiences',
  status: 'Status',
  creative: 'Ads',
  optimization_goal: 'Performance goal',
  spend_cap: 'Spending limit',
  review: 'Review',
  tracking: 'Events Manager',
};

const MONEY = new Set(['daily_budget', 'daily_spend_cap', 'bid_amount']);

function value(change: AdsManagerChange, v: number | string | null, currency: string): string {
  if (v === null) return '—';
  if (typeof v === 'number') return MONEY.has(change.field) ? money(v, currency) : String(v);
  return v;
}

/** The edits a recommendation makes in Ads Manager, one line each. */
export function AdsManagerChanges(props: {
  changes: readonly AdsManagerChange[] | undefined;
  currency: string;
}): React.JSX.Element | null {
  const changes = props.changes ?? [];
  if (changes.length === 0) return null;
  return (
    <div className="ads-manager-changes">
      <span className="muted small">In Ads Manager:</span>
      <ul>
        {changes.map((c, i) => (
          <li key={`${c.id}-${c.field}-${i}`} className="small">
            {LEVELS[c.level]} <strong>{c.name}</strong> · {FIELDS[c.field] ?? c.field}:{' '}
            {c.from === null ? '' : `${value(c, c.from, props.currency)} → `}
            {value(c, c.to, props.currency)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Meta's own recommendations (opportunity score), shown beside ours; nothing when Meta offers none. */
export function MetaRecommendationList(props: {
  meta: MetaRecommendations | null | undefined;
}): React.JSX.Element | null {
  const meta = props.meta;
  if (!meta) return null;
  return (
    <section className="section" aria-labelledby="meta-recs-title" data-testid="meta-recommendations">
      <h2 id="meta-recs-title">
        From Meta
        {meta.opportunityScore !== null ? (
          <span className="muted small"> · opportunity score {Math.round(meta.opportunityScore)}/100</span>
        ) : null}
      </h2>
      {meta.items.length === 0 ? (
        <p className="muted">Meta has no recommendation for this account right now.</p>
      ) : (
        <ul className="rec-list">
          {meta.items.map((r, i) => (
            <li key={`${r.type}-${i}`} className="rec">
              <div className="rec-head">
                <strong>{r.title}</strong>
                {r.points !== null ? <span className="muted small">+{r.points} points</span> : null}
              </div>
              <p>{r.body}</p>
              <p className="muted small">
                {r.liftEstimate ? `${r.liftEstimate} (Meta's estimate)` : null}
                {r.liftEstimate && r.campaignName ? ' · ' : null}
                {r.campaignName ? `Campaign ${r.campaignName}` : r.liftEstimate ? null : 'Whole account'}
              </p>
            </li>
          ))}
        </ul>
      )}
      <p className="muted small">
        Meta’s own recommendations for the account, from its Marketing API (read at the last sync): Meta’s
        best practices, not findings of this diagnostic.
      </p>
    </section>
  );
}
