// GET /act_{id}/recommendations: Meta's performance recommendations (the items behind Ads Manager's
// opportunity score), and the account's `opportunity_score` field. The demo serves a few
// deterministic ones read from the account's structure, so the app can show them beside its own.
import { pageList, parseLimit } from '../paging';
import type { Account } from '../world/types';
import { linkFor, param, type RouteContext, type RouteResult } from './context';

interface DemoRecommendation {
  key: string;
  type: string;
  headline: string;
  body: string;
  lift: string;
  points: number;
  objectIds: string[];
}

function recommendationsOf(account: Account): DemoRecommendation[] {
  const live = account.campaigns.filter((c) => c.status === 'ACTIVE');
  const out: DemoRecommendation[] = [];
  // Ad sets split thin over one campaign: Meta's "fragmentation" (consolidate ad sets).
  const fragmented = live.find((c) => c.adSets.filter((s) => s.status === 'ACTIVE').length >= 3);
  if (fragmented)
    out.push({
      key: `frag-${fragmented.id}`,
      type: 'FRAGMENTATION',
      headline: 'Combine similar ad sets',
      body: `Campaign ${fragmented.name} splits its budget across ${fragmented.adSets.length} ad sets with similar audiences. Combining them can help them exit the learning phase sooner.`,
      lift: 'Up to 12% lower cost per result',
      points: 8,
      objectIds: fragmented.adSets.map((s) => s.id),
    });
  const first = live[0]?.adSets[0];
  if (first && live[0])
    out.push({
      key: `aud-${first.id}`,
      type: 'ADVANTAGE_PLUS_AUDIENCE',
      headline: 'Turn on Advantage+ audience',
      body: `Let Meta find people beyond the audience of ad set ${first.name} (campaign ${live[0].name}) when it is likely to improve performance.`,
      lift: 'Up to 7% lower cost per result',
      points: 5,
      objectIds: [first.id],
    });
  out.push({
    key: `capi-${account.accountId}`,
    type: 'SIGNALS_GROWTH_CAPI',
    headline: 'Set up the Conversions API',
    body: 'Send website events from your server as well as the pixel, so fewer conversions are lost to browsers and ad blockers.',
    lift: 'Up to 13% lower cost per result',
    points: 6,
    objectIds: [],
  });
  return out;
}

/** The account's opportunity score: 100 less the points of the open recommendations. */
export function opportunityScore(account: Account): number {
  return 100 - recommendationsOf(account).reduce((sum, r) => sum + r.points, 0);
}

export function recommendationsEdge(ctx: RouteContext, account: Account): RouteResult {
  const items = recommendationsOf(account);
  const page = pageList(
    items,
    (r) => r.key,
    { limit: parseLimit(param(ctx, 'limit')), after: param(ctx, 'after'), before: param(ctx, 'before') },
    linkFor(ctx),
  );
  return {
    body: {
      ...page,
      data: page.data.map((r) => ({
        type: r.type,
        recommendation_content: {
          headline: r.headline,
          body: r.body,
          lift_estimate: r.lift,
          opportunity_score_lift: String(r.points),
        },
        object_ids: r.objectIds,
        recommendation_signature: `${r.type}:${r.key}`,
      })),
    },
  };
}
