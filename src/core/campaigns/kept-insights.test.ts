// A campaign detail's insights are kept under its account's revision and the account's day: the same
// frozen object while neither moved, computed again when the campaign's figures, the day or the range
// change. Over a real SQLite store and the use case every transport calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccount, seedCampaign, seedDailyInsights, seedWorkspace } from '../../test-support/api-fixtures';
import { startTestApi, type TestApi } from '../../test-support/api-server';
import type { RequestContext } from '../identity/access';

let t: TestApi;
let ctx: RequestContext;
let campaignId: string;
let otherId: string;

beforeAll(async () => {
  t = await startTestApi({ now: '2026-03-10T12:00:00.000Z' });
  const db = t.core.db;
  const ws = seedWorkspace(db, { plan: 'agency' });
  ctx = { workspaceId: ws.workspaceId, plan: 'agency', userId: ws.ownerId, keyId: null, mode: 'all' };
  const account = seedAccount(db, { workspaceId: ws.workspaceId, mode: 'live', currency: 'USD' });
  campaignId = seedCampaign(db, { accountId: account.id });
  otherId = seedCampaign(db, { accountId: account.id });
  for (const id of [campaignId, otherId])
    seedDailyInsights(db, {
      accountId: account.id,
      campaignId: id,
      from: '2026-03-01',
      days: 12,
      row: () => ({
        spendMicros: 10_000_000,
        impressions: 1000,
        clicks: 10,
        conversions: 2,
        revenueMicros: 0,
      }),
    });
});

afterAll(async () => {
  await t.close();
});

const insightsOf = async (id: string, range: 'last_7d' | 'lifetime' = 'last_7d') =>
  (await t.app.use.campaigns.get(ctx, id, { include: new Set(['insights']), insightsDateRange: range }))
    .insights;

describe("a campaign detail's insights", () => {
  it('are the same frozen object until its figures, the day or the range move', async () => {
    const first = await insightsOf(campaignId);
    expect(Object.isFrozen(first) && Object.isFrozen(first?.daily)).toBe(true);
    expect(first?.spend).toBe(70);
    expect(await insightsOf(campaignId)).toBe(first);

    // A day of this campaign moves: its rollup, and with it the account's revision, follow.
    t.core.db
      .prepare(
        `UPDATE insights_campaign_daily SET spend_micros = spend_micros + 1000000 WHERE campaign_id = ? AND date = '2026-03-09'`,
      )
      .run(campaignId);
    const moved = await insightsOf(campaignId);
    expect(moved).not.toBe(first);
    expect(moved?.spend).toBe(71);
    expect(moved?.daily.find((d) => d.date === '2026-03-09')?.spend).toBe(11);

    // Another range and another campaign are their own; the first range is still kept.
    const lifetime = await insightsOf(campaignId, 'lifetime');
    expect(lifetime?.daily[0]?.date).toBe('2026-03-01');
    expect(lifetime?.spend).toBe(101);
    expect((await insightsOf(otherId))?.spend).toBe(70);
    expect(await insightsOf(campaignId)).toBe(moved);

    // The next day in the account's time zone: the window moves with it.
    t.clock.advance(24 * 3_600_000);
    const nextDay = await insightsOf(campaignId);
    expect(nextDay).not.toBe(moved);
    expect(nextDay?.daily.map((d) => d.date)).toEqual([
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
      '2026-03-11',
    ]);
  });
});
