import { dateRange } from '../core/clock';
import { graphError, startFakeGraph, type FakeAnswer, type FakeRequest } from './fake-graph-server';

/**
 * A small, fully controllable Graph ad account served by the throwaway fake server: 3 campaigns × 2 ad
 * sets × 2 ads with daily insights. Used by sync unit tests; integration tests use the demo platform.
 */
export interface FakeAccountState {
  today: string;
  tokenExpired: boolean;
  /** Fails insight requests at this level after this many successful insight requests (kill simulation). */
  failInsightsAfter: number | null;
  campaigns: { id: string; name: string; updated: number; dailyBudget: string }[];
  adSets: { id: string; campaignId: string; name: string; updated: number }[];
  ads: { id: string; adSetId: string; campaignId: string; name: string; updated: number }[];
  /** Added to every conversion count (late conversions). */
  conversionBoost: number;
  /** From this date on, one campaign's conversions are cut to this share (data that turns bad). */
  conversionCut?: { campaignId: string; from: string; share: number } | null;
  /** The account's time zone (default UTC). */
  timezone?: string;
}

export const FAKE_ACCOUNT = 'act_1001';

export function fakeAccountState(today: string): FakeAccountState {
  const state: FakeAccountState = {
    today,
    tokenExpired: false,
    failInsightsAfter: null,
    campaigns: [],
    adSets: [],
    ads: [],
    conversionBoost: 0,
  };
  for (let c = 1; c <= 3; c += 1) {
    state.campaigns.push({
      id: `10${c}`,
      name: `Campaign ${c}`,
      updated: 1_700_000_000,
      dailyBudget: `${c}000`,
    });
    for (let s = 1; s <= 2; s += 1) {
      const adSetId = `20${c}${s}`;
      state.adSets.push({
        id: adSetId,
        campaignId: `10${c}`,
        name: `Ad set ${c}.${s}`,
        updated: 1_700_000_000,
      });
      for (let a = 1; a <= 2; a += 1) {
        state.ads.push({
          id: `30${c}${s}${a}`,
          adSetId,
          campaignId: `10${c}`,
          name: `Ad ${c}.${s}.${a}`,
          updated: 1_700_000_000,
        });
      }
    }
  }
  return state;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', '+0000');

function adDay(adId: string, date: string, boost: number) {
  const n = (Number(adId) % 7) + 1;
  const day = Number(date.slice(8, 10));
  const conversions = ((n + day) % 5) + boost;
  return {
    spend: (n * 10 + day / 4).toFixed(2),
    impressions: 1000 * n + day,
    clicks: 10 * n + (day % 3),
    conversions,
    revenue: conversions * 25.5,
  };
}

export async function startFakeAccount(state: FakeAccountState) {
  let insightRequests = 0;
  const server = await startFakeGraph((request: FakeRequest): FakeAnswer => {
    if (state.tokenExpired) {
      return {
        status: 400,
        body: graphError(190, 'Error validating access token: Session has expired', { error_subcode: 463 }),
      };
    }
    const parts = request.path.split('/').filter(Boolean).slice(1); // drop the version
    const [node, edge] = parts;
    const limit = Number(request.query.get('limit') ?? 25);
    const offset = Number(request.query.get('after') ?? 0);
    const page = (items: unknown[]): FakeAnswer => {
      const slice = items.slice(offset, offset + limit);
      const next = new URL(`http://x${request.path}`);
      request.query.forEach((value, key) => next.searchParams.set(key, value));
      next.searchParams.set('after', String(offset + limit));
      const url = server.url + next.pathname + next.search;
      return { body: { data: slice, paging: offset + limit < items.length ? { next: url } : {} } };
    };
    const since = Number(request.query.get('updated_since') ?? 0);
    if (node === FAKE_ACCOUNT && edge === undefined) {
      return {
        body: {
          id: FAKE_ACCOUNT,
          account_id: '1001',
          name: 'Fake Shop',
          currency: 'USD',
          timezone_name: state.timezone ?? 'UTC',
          account_status: 1,
          business: { id: '9', name: 'Fake Biz' },
          user_tasks: ['MANAGE', 'ADVERTISE', 'ANALYZE'],
        },
      };
    }
    if (node === FAKE_ACCOUNT && edge === 'campaigns') {
      return page(
        state.campaigns
          .filter((c) => c.updated >= since)
          .map((c) => ({
            id: c.id,
            name: c.name,
            status: 'ACTIVE',
            effective_status: 'ACTIVE',
            objective: 'OUTCOME_SALES',
            daily_budget: c.dailyBudget,
            created_time: iso(1_690_000_000),
            updated_time: iso(c.updated),
          })),
      );
    }
    if (node === FAKE_ACCOUNT && edge === 'adsets') {
      return page(
        state.adSets
          .filter((s) => s.updated >= since)
          .map((s) => ({
            id: s.id,
            campaign_id: s.campaignId,
            name: s.name,
            status: 'ACTIVE',
            promoted_object: { pixel_id: '1', custom_event_type: 'PURCHASE' },
            targeting: { geo_locations: { countries: ['US'] }, age_min: 18 },
            learning_stage_info: { status: 'SUCCESS', conversions: 60, last_sig_edit_ts: 1_699_000_000 },
            created_time: iso(1_690_000_000),
            updated_time: iso(s.updated),
          })),
      );
    }
    if (node === FAKE_ACCOUNT && edge === 'ads') {
      return page(
        state.ads
          .filter((a) => a.updated >= since)
          .map((a) => ({
            id: a.id,
            adset_id: a.adSetId,
            campaign_id: a.campaignId,
            name: a.name,
            status: 'ACTIVE',
            creative: { id: `c${a.id}` },
            created_time: iso(1_690_000_000),
            updated_time: iso(a.updated),
          })),
      );
    }
    if (node === FAKE_ACCOUNT && edge === 'activities') {
      // The activity log: one budget edit of the first campaign, inside any window asked for.
      const first = state.campaigns[0];
      return page(
        first
          ? [
              {
                event_type: 'update_campaign_budget',
                event_time: iso(Number(request.query.get('until') ?? 1_700_000_000) - 3600),
                object_id: first.id,
                object_name: first.name,
                object_type: 'CAMPAIGN_GROUP',
                actor_id: '42',
                actor_name: 'Fake Analyst',
                extra_data: JSON.stringify({
                  old_value: { amount: 1000, currency: 'USD' },
                  new_value: { amount: Number(first.dailyBudget), currency: 'USD' },
                }),
              },
            ]
          : [],
      );
    }
    if (edge === 'insights') {
      insightRequests += 1;
      if (state.failInsightsAfter !== null && insightRequests > state.failInsightsAfter) {
        return { status: 500, body: graphError(1, 'An unknown error occurred') };
      }
      const range = JSON.parse(request.query.get('time_range') ?? '{}') as { since: string; until: string };
      const until = range.until > state.today ? state.today : range.until;
      const level = request.query.get('level') ?? 'ad';
      const ads = state.ads.filter((a) => node === FAKE_ACCOUNT || a.campaignId === node);
      const rows: Record<string, unknown>[] = [];
      for (const date of dateRange(range.since, until)) {
        const groups = new Map<string, { keys: Record<string, string>; m: ReturnType<typeof adDay>[] }>();
        for (const ad of ads) {
          const key = level === 'campaign' ? ad.campaignId : level === 'adset' ? ad.adSetId : ad.id;
          const keys: Record<string, string> = { campaign_id: ad.campaignId };
          if (level !== 'campaign') keys.adset_id = ad.adSetId;
          if (level === 'ad') keys.ad_id = ad.id;
          const group = groups.get(key) ?? { keys, m: [] };
          const day = adDay(ad.id, date, state.conversionBoost);
          const cut = state.conversionCut;
          if (cut && cut.campaignId === ad.campaignId && date >= cut.from) {
            day.conversions = Math.floor(day.conversions * cut.share);
            day.revenue = day.conversions * 25.5;
          }
          group.m.push(day);
          groups.set(key, group);
        }
        for (const { keys, m } of groups.values()) {
          const sum = (f: (x: ReturnType<typeof adDay>) => number) => m.reduce((acc, x) => acc + f(x), 0);
          const conversions = String(sum((x) => x.conversions));
          rows.push({
            ...keys,
            date_start: date,
            date_stop: date,
            spend: sum((x) => Number(x.spend)).toFixed(2),
            impressions: String(sum((x) => x.impressions)),
            clicks: String(sum((x) => x.clicks)),
            actions: [
              { action_type: 'purchase', value: conversions },
              { action_type: 'omni_purchase', value: conversions },
              { action_type: 'offsite_conversion.fb_pixel_purchase', value: conversions },
            ],
            action_values: [{ action_type: 'omni_purchase', value: sum((x) => x.revenue).toFixed(2) }],
          });
        }
      }
      return page(rows);
    }
    return {
      status: 400,
      body: graphError(100, `Object with ID '${node}' does not exist`, { error_subcode: 33 }),
    };
  });
  return server;
}
