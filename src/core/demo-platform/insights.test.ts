import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groundTruth, startDemoPlatform, type DemoPlatform } from './index';
import {
  allPages,
  errorOf,
  graphGet,
  graphPost,
  graphUrl,
  type Row,
} from '../../test-support/demo-platform-util';

const today = '2026-11-22';
const range = JSON.stringify({ since: '2026-11-05', until: '2026-11-18' });
let p: DemoPlatform;
let large: string;
let campaignId: string;

interface Action {
  action_type: string;
  value: string;
}

function action(row: Row, field: 'actions' | 'action_values', type: string): number {
  const list = (row[field] as Action[] | undefined) ?? [];
  return Number(list.find((a) => a.action_type === type)?.value ?? 0);
}

function totals(rows: Row[]): Record<string, number> {
  const t = { spend: 0, impressions: 0, clicks: 0, purchases: 0, revenue: 0, reach: 0 };
  for (const r of rows) {
    t.spend += Math.round(Number(r.spend) * 100);
    t.impressions += Number(r.impressions);
    t.clicks += Number(r.clicks);
    t.reach += Number(r.reach);
    t.purchases += action(r, 'actions', 'omni_purchase');
    t.revenue += Math.round(action(r, 'action_values', 'omni_purchase') * 100);
  }
  return t;
}

const FIELDS =
  'campaign_id,adset_id,ad_id,spend,impressions,reach,frequency,clicks,ctr,cpm,cpc,actions,action_values,account_currency';

beforeAll(async () => {
  p = await startDemoPlatform({ seed: 1, today });
  large = ((await graphGet(p, '/me/adaccounts')).body.data as Array<{ id: string }>)[0]?.id ?? '';
  campaignId =
    groundTruth({ seed: 1, today }).find((e) => e.platformAccountId === large && e.category === 'HEALTHY')
      ?.platformCampaignId ?? '';
});
afterAll(() => p.close());

describe('insights', () => {
  it('returns daily rows whose campaign and ad set rows equal the sums of their ads', async () => {
    const q = { fields: FIELDS, time_range: range, time_increment: '1', limit: '500' };
    const byLevel = async (level: string): Promise<Row[]> =>
      allPages(p, `/${campaignId}/insights`, { ...q, level });
    const [campaign, adSets, ads] = [await byLevel('campaign'), await byLevel('adset'), await byLevel('ad')];
    expect(campaign).toHaveLength(14);
    for (const day of campaign) {
      expect(day.date_start).toBe(day.date_stop);
      const date = day.date_start;
      const sumAds = totals(ads.filter((r) => r.date_start === date));
      const sumAdSets = totals(adSets.filter((r) => r.date_start === date));
      expect(totals([day])).toEqual(sumAds);
      expect(sumAdSets).toEqual(sumAds);
      expect(Number(day.frequency)).toBeCloseTo(Number(day.impressions) / Number(day.reach), 4);
      expect(day.account_currency).toBe('USD');
    }
  });

  it('reports purchase aliases with the same value (summing them would triple-count)', async () => {
    const rows = await allPages(p, `/${large}/insights`, {
      fields: 'actions,action_values',
      level: 'campaign',
      date_preset: 'last_7d',
      time_increment: '1',
      limit: '1000',
    });
    expect(rows.length).toBeGreaterThan(100);
    for (const r of rows) {
      for (const field of ['actions', 'action_values'] as const) {
        const omni = action(r, field, 'omni_purchase');
        expect(action(r, field, 'purchase')).toBe(omni);
        expect(action(r, field, 'offsite_conversion.fb_pixel_purchase')).toBe(omni);
      }
      expect(action(r, 'actions', 'link_click')).toBeGreaterThan(0);
    }
  });

  it('sends Meta types: strings for metrics, no rows without delivery, JPY without decimals', async () => {
    const accounts = (await graphGet(p, '/me/adaccounts', { fields: 'id,currency' })).body.data as Array<{
      id: string;
      currency: string;
    }>;
    const jpy = accounts.find((a) => a.currency === 'JPY')?.id ?? '';
    const rows = await allPages(p, `/${jpy}/insights`, {
      fields: 'spend,impressions,clicks,ctr,cpm,account_currency',
      level: 'ad',
      date_preset: 'last_30d',
      time_increment: '1',
      limit: '2000',
    });
    expect(rows.length).toBeGreaterThan(100);
    for (const r of rows) {
      expect(r.spend).toMatch(/^\d+$/);
      expect(r.impressions).toMatch(/^[1-9]\d*$/);
      expect(typeof r.ctr).toBe('string');
    }
    const usd = await graphGet(p, `/${large}/insights`, { fields: 'spend', date_preset: 'last_30d' });
    expect((usd.body.data as Row[])[0]?.spend).toMatch(/^\d+\.\d{2}$/);
    const before = await graphGet(p, `/${large}/insights`, {
      fields: 'spend',
      time_range: JSON.stringify({ since: '2020-01-01', until: '2020-01-31' }),
      time_increment: '1',
    });
    expect(before.body.data).toEqual([]);
  });

  it('pages rows with after/before and honours limit up to 5000', async () => {
    const q = { fields: 'ad_id,spend', level: 'ad', time_range: range, time_increment: '1' };
    const first = await graphGet(p, `/${large}/insights`, { ...q, limit: '30' });
    const next = (first.body.paging as { next: string }).next;
    const second = await graphUrl(next);
    expect((second.body.data as Row[]).length).toBe(30);
    const back = await graphUrl((second.body.paging as { previous: string }).previous);
    expect(back.body.data).toEqual(first.body.data);
    const big = await graphGet(p, `/${large}/insights`, { ...q, limit: '5000' });
    expect((big.body.data as Row[]).length).toBe(5000);
    const all = await allPages(p, `/${large}/insights`, { ...q, limit: '5000' });
    expect(all.slice(0, 60)).toEqual([...(first.body.data as Row[]), ...(second.body.data as Row[])]);
  });

  it('aggregates over the range without time_increment and filters by ad set', async () => {
    const adSets = (await graphGet(p, `/${campaignId}/adsets`, { fields: 'id' })).body.data as Array<{
      id: string;
    }>;
    const target = adSets[0]?.id ?? '';
    const filtering = JSON.stringify([{ field: 'adset.id', operator: 'IN', value: [target] }]);
    const daily = await allPages(p, `/${large}/insights`, {
      fields: 'adset_id,spend,impressions',
      level: 'adset',
      time_range: range,
      time_increment: '1',
      filtering,
      limit: '100',
    });
    expect(daily.every((r) => r.adset_id === target)).toBe(true);
    const whole = await graphGet(p, `/${large}/insights`, {
      fields: 'adset_id,spend,impressions',
      level: 'adset',
      time_range: range,
      filtering,
    });
    const row = (whole.body.data as Row[])[0] ?? {};
    expect(row).toMatchObject({ date_start: '2026-11-05', date_stop: '2026-11-18', adset_id: target });
    expect(Number(row.impressions)).toBe(daily.reduce((s, r) => s + Number(r.impressions), 0));
  });

  it('rejects unknown fields and malformed ranges with code 100', async () => {
    expect(errorOf(await graphGet(p, `/${large}/insights`, { fields: 'spend,bogus' }))).toMatchObject({
      code: 100,
    });
    expect(
      errorOf(await graphGet(p, `/${large}/insights`, { time_range: '{"since":"2026-11-05"}' })),
    ).toMatchObject({ code: 100 });
    expect(errorOf(await graphGet(p, `/${large}/insights`, { level: 'creative' }))).toMatchObject({
      code: 100,
    });
  });

  it('runs async jobs: report_run_id, status polls, paged rows; failed jobs report Job Failed', async () => {
    const started = await graphPost(p, `/${large}/insights`, {
      fields: ['campaign_id', 'spend'],
      level: 'campaign',
      time_range: { since: '2026-10-01', until: '2026-11-18' },
      time_increment: 1,
    });
    const id = String(started.body.report_run_id);
    expect(id).toMatch(/^\d+$/);
    const early = await graphGet(p, `/${id}/insights`);
    expect(early.status).toBe(400);
    const statuses: string[] = [];
    for (let i = 0; i < 5 && statuses.at(-1) !== 'Job Completed'; i++) {
      const poll = await graphGet(p, `/${id}`);
      statuses.push(String(poll.body.async_status));
      expect(poll.body.async_percent_completion).toBeTypeOf('number');
    }
    expect(statuses).toEqual(['Job Started', 'Job Running', 'Job Completed']);
    const rows = await allPages(p, `/${id}/insights`, { limit: '500' });
    const sync = await allPages(p, `/${large}/insights`, {
      fields: 'campaign_id,spend',
      level: 'campaign',
      time_range: JSON.stringify({ since: '2026-10-01', until: '2026-11-18' }),
      time_increment: '1',
      limit: '5000',
    });
    expect(rows).toEqual(sync);

    p.controls.failNextJobs(1);
    const failing = String(
      (await graphPost(p, `/${large}/insights`, { fields: 'spend' })).body.report_run_id,
    );
    let status = '';
    for (let i = 0; i < 5 && !status.endsWith('Failed'); i++)
      status = String((await graphGet(p, `/${failing}`)).body.async_status);
    expect(status).toBe('Job Failed');
    expect(errorOf(await graphGet(p, `/${failing}/insights`))).toMatchObject({
      code: -2,
      error_subcode: 2490547,
    });
  });

  it('answers byte for byte the same for the same seed, differently for another seed', async () => {
    const other = await startDemoPlatform({ seed: 1, today });
    const third = await startDemoPlatform({ seed: 2, today });
    try {
      const body = async (q: DemoPlatform, path: string): Promise<string> => {
        const res = await fetch(
          `${q.url}/v25.0${path}?access_token=demo-token&fields=${FIELDS}&level=ad&date_preset=last_7d&time_increment=1&limit=200`,
        );
        return JSON.stringify(((await res.json()) as { data: unknown }).data);
      };
      const path = `/${large}/insights`;
      expect(await body(p, path)).toBe(await body(other, path));
      const thirdLarge =
        ((await graphGet(third, '/me/adaccounts')).body.data as Array<{ id: string }>)[0]?.id ?? '';
      expect(await body(third, `/${thirdLarge}/insights`)).not.toBe(await body(p, path));
    } finally {
      await other.close();
      await third.close();
    }
  });
});
