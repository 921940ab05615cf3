// The portfolio read model on a real store through the real App, and GET /v1/portfolio over loopback:
// attention order, pace in the account's time zone, results per result type (never added up), money
// at risk, the goal against actuals, and workspace (and key mode) isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../store/open';
import {
  seedAccount,
  seedCampaign,
  seedDailyInsights,
  seedKey,
  seedWorkspace,
} from '../../test-support/api-fixtures';
import { call, startTestApi, type TestApi } from '../../test-support/api-server';
import { responseChecker } from '../../test-support/openapi-check';
import { reconcileIssues } from '../issues/lifecycle';
import type { RequestContext } from '../identity/access';
import type { AccountOverview, Portfolio, PortfolioRow } from '../../shared/api/portfolio';
import { capRunsOutOn, monthOf, paceOf } from './attention';
import { goalStatus } from './goals';

// Tuesday 10 March 2026, noon UTC: 9 whole days of March are over in UTC.
const NOW = '2026-03-10T12:00:00.000Z';
let t: TestApi;
let ctx: RequestContext;
let key: string;
const ids: Record<string, string> = {};
const campaigns: Record<string, string> = {};

function resultType(db: Db, campaignId: string, type: string, name: string): void {
  db.prepare(`UPDATE campaigns SET result_type = ?, result_name = ? WHERE id = ?`).run(
    type,
    name,
    campaignId,
  );
}

function daily(
  db: Db,
  accountId: string,
  campaignId: string,
  spend: number,
  results: number,
  revenue = 0,
): void {
  seedDailyInsights(db, {
    accountId,
    campaignId,
    from: '2026-02-01',
    days: 38, // through 10 March
    row: () => ({
      spendMicros: spend * 1_000_000,
      impressions: 1000,
      clicks: 20,
      conversions: results,
      revenueMicros: revenue * 1_000_000,
    }),
  });
}

async function issue(
  accountId: string,
  campaignId: string | null,
  severity: 'HIGH' | 'CRITICAL' | 'LOW',
): Promise<void> {
  await reconcileIssues(t.core, {
    workspaceId: ctx.workspaceId,
    accountId,
    diagnosticId: 'diag_seeded00000000',
    judgedCampaignIds: [campaignId],
    found: [
      {
        campaignId,
        type: 'CPA_DEGRADATION',
        entity: { id: campaignId ?? accountId, name: 'x' },
        severity,
        title: 'Cost per result up',
        description: 'seeded',
        evidence: {},
      },
    ],
  });
}

beforeAll(async () => {
  t = await startTestApi({ now: NOW });
  const db = t.core.db;
  const { workspaceId, ownerId } = seedWorkspace(db, { plan: 'agency' });
  ctx = { workspaceId, plan: 'agency', userId: ownerId, keyId: null, mode: 'all' };
  ({ key } = await seedKey(db, t.core.clock, { workspaceId, mode: 'test' }));

  // Alpha: healthy, on budget (50 a day against 50).
  ids.alpha = seedAccount(db, { workspaceId, mode: 'test', name: 'Alpha' }).id;
  campaigns.alpha = seedCampaign(db, { accountId: ids.alpha, dailyBudgetMicros: 50_000_000 });
  resultType(db, campaigns.alpha, 'PURCHASE', 'Purchases');
  daily(db, ids.alpha, campaigns.alpha, 50, 2, 150);

  // Bravo: its token expired (blocked), otherwise quiet.
  ids.bravo = seedAccount(db, {
    workspaceId,
    mode: 'test',
    name: 'Bravo',
    connectionStatus: 'token_expired',
  }).id;

  // Charlie: one critical issue; leads and purchases, 20 a day each against 100 of budgets (behind).
  ids.charlie = seedAccount(db, { workspaceId, mode: 'test', name: 'Charlie' }).id;
  campaigns.charlieLeads = seedCampaign(db, { accountId: ids.charlie, dailyBudgetMicros: 50_000_000 });
  campaigns.charlieSales = seedCampaign(db, { accountId: ids.charlie, dailyBudgetMicros: 50_000_000 });
  resultType(db, campaigns.charlieLeads, 'LEAD_FORM', 'Leads (form)');
  resultType(db, campaigns.charlieSales, 'PURCHASE', 'Purchases');
  daily(db, ids.charlie, campaigns.charlieLeads, 20, 4);
  daily(db, ids.charlie, campaigns.charlieSales, 20, 1, 60);
  await issue(ids.charlie, campaigns.charlieLeads, 'CRITICAL');

  // Delta: a HIGH issue on one of two campaigns: that campaign's week of spend is at risk.
  ids.delta = seedAccount(db, { workspaceId, mode: 'test', name: 'Delta' }).id;
  campaigns.deltaA = seedCampaign(db, { accountId: ids.delta, dailyBudgetMicros: 30_000_000 });
  campaigns.deltaB = seedCampaign(db, { accountId: ids.delta, dailyBudgetMicros: 10_000_000 });
  daily(db, ids.delta, campaigns.deltaA, 30, 3);
  daily(db, ids.delta, campaigns.deltaB, 10, 1);
  await issue(ids.delta, campaigns.deltaA, 'HIGH');

  // Echo: Auckland time (UTC+13): its "today" is already 11 March; a spend cap nearly spent.
  ids.echo = seedAccount(db, { workspaceId, mode: 'test', name: 'Echo', timezone: 'Pacific/Auckland' }).id;
  db.prepare(`UPDATE ad_accounts SET spend_cap_micros = ?, amount_spent_micros = ? WHERE id = ?`).run(
    1_000_000_000,
    900_000_000,
    ids.echo,
  );
  campaigns.echo = seedCampaign(db, { accountId: ids.echo, dailyBudgetMicros: 40_000_000 });
  daily(db, ids.echo, campaigns.echo, 40, 2);

  // Another workspace's account with a critical issue, and a live-mode account of ours.
  const other = seedWorkspace(db, { plan: 'agency' });
  ids.foreign = seedAccount(db, { workspaceId: other.workspaceId, mode: 'test', name: 'Foreign' }).id;
  ids.live = seedAccount(db, { workspaceId, mode: 'live', name: 'Live one' }).id;
});

afterAll(async () => {
  await t.close();
});

const row = (p: Portfolio, id: string): PortfolioRow => {
  const found = p.items.find((r) => r.accountId === id);
  if (!found) throw new Error(`no row for ${id}`);
  return found;
};

describe('portfolio.home', () => {
  it('sorts by attention: blocked first, then critical issues, money at risk, pace; then by name', async () => {
    const p = await t.app.use.portfolio.home(ctx);
    expect(p.items.map((r) => r.name)).toEqual(['Bravo', 'Charlie', 'Delta', 'Echo', 'Alpha', 'Live one']);
    expect(row(p, ids.bravo!).blocked).toMatch(/token expired/);
    expect(row(p, ids.charlie!).attention.reasons).toContain('1 critical issue');
    expect(row(p, ids.alpha!).attention).toEqual({ score: 0, reasons: [] });
    const scores = p.items.map((r) => r.attention.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('paces this month in the account time zone against its daily budgets', async () => {
    const p = await t.app.use.portfolio.home(ctx);
    const alpha = row(p, ids.alpha!);
    expect(alpha.month).toEqual({ from: '2026-03-01', to: '2026-03-10', daysInMonth: 31 });
    expect(alpha.spendThisMonth).toBe(500);
    expect(alpha.dailyBudget).toBe(50);
    expect(alpha.monthlyBudget).toBe(1550);
    expect(alpha.paceRatio).toBe(1);
    expect(alpha.pace).toBe('on_track');
    const charlie = row(p, ids.charlie!);
    expect(charlie.paceRatio).toBe(0.4);
    expect(charlie.pace).toBe('behind');
    // Auckland's today is 11 March: 10 whole days are over there, but its rows stop on the 10th.
    const echo = row(p, ids.echo!);
    expect(echo.month.to).toBe('2026-03-11');
    expect(echo.paceRatio).toBe(1);
    expect(echo.spendCap).toEqual({ cap: 1000, spent: 900, remaining: 100, runsOutOn: '2026-03-14' });
    expect(echo.attention.reasons).toContain('spend cap runs out this month');
  });

  it('gives results per result type, never added across types, with cost per result and ROAS', async () => {
    const charlie = row(await t.app.use.portfolio.home(ctx), ids.charlie!);
    expect(charlie.results).toHaveLength(2);
    const leads = charlie.results.find((g) => g.resultType === 'LEAD_FORM');
    const sales = charlie.results.find((g) => g.resultType === 'PURCHASE');
    expect(leads).toMatchObject({
      resultName: 'Leads (form)',
      results: 40,
      spend: 200,
      costPerResult: 5,
      roas: null,
    });
    expect(sales).toMatchObject({ results: 10, spend: 200, costPerResult: 20, revenue: 600, roas: 3 });
  });

  it("counts live issues by severity and the week's spend at risk", async () => {
    const p = await t.app.use.portfolio.home(ctx);
    expect(row(p, ids.delta!).issues).toEqual({ CRITICAL: 0, HIGH: 1, MEDIUM: 0, LOW: 0 });
    expect(row(p, ids.delta!).moneyAtRisk).toBe(210); // 7 days × 30 of campaign A only
    expect(row(p, ids.charlie!).moneyAtRisk).toBe(140);
    expect(row(p, ids.alpha!).moneyAtRisk).toBe(0);
  });

  it('judges a goal on the main result type (CPA) or on valued results (ROAS)', () => {
    const groups = [
      {
        resultType: 'LEAD_FORM',
        resultName: 'Leads',
        campaigns: 1,
        results: 40,
        spend: 200,
        costPerResult: 5,
        revenue: 0,
        roas: null,
      },
      {
        resultType: 'PURCHASE',
        resultName: 'Purchases',
        campaigns: 1,
        results: 10,
        spend: 100,
        costPerResult: 10,
        revenue: 250,
        roas: 2.5,
      },
    ];
    expect(goalStatus({ kind: 'CPA', target: 6 }, groups)).toMatchObject({
      actual: 5,
      resultName: 'Leads',
      status: 'met',
    });
    expect(goalStatus({ kind: 'CPA', target: 4 }, groups)).toMatchObject({ status: 'missed' });
    expect(goalStatus({ kind: 'ROAS', target: 3 }, groups)).toMatchObject({ actual: 2.5, status: 'missed' });
    expect(goalStatus({ kind: 'ROAS', target: 1 }, [])).toMatchObject({ actual: null, status: 'no_data' });
    expect(goalStatus(null, groups)).toBeNull();
  });

  it("shows the account's goal against this month's actuals", async () => {
    expect(row(await t.app.use.portfolio.home(ctx), ids.alpha!).goal).toBeNull();
    await t.app.use.goals.set(ctx, { accountId: ids.alpha!, kind: 'CPA', target: 30 });
    expect(row(await t.app.use.portfolio.home(ctx), ids.alpha!).goal).toEqual({
      kind: 'CPA',
      target: 30,
      actual: 25,
      resultName: 'Purchases',
      status: 'met',
    });
    await t.app.use.goals.set(ctx, { accountId: ids.alpha!, kind: 'ROAS', target: 4 });
    expect(row(await t.app.use.portfolio.home(ctx), ids.alpha!).goal).toMatchObject({
      kind: 'ROAS',
      actual: 3,
      status: 'missed',
    });
    await t.app.use.goals.clear(ctx, { accountId: ids.alpha! });
    expect(row(await t.app.use.portfolio.home(ctx), ids.alpha!).goal).toBeNull();
  });

  it('sees a changed campaign row at once (the results memo is keyed by the rollup)', async () => {
    const before = row(await t.app.use.portfolio.home(ctx), ids.alpha!).results[0]!;
    t.core.db
      .prepare(
        `UPDATE insights_campaign_daily SET conversions = conversions + 5 WHERE campaign_id = ? AND date = ?`,
      )
      .run(campaigns.alpha, '2026-03-10');
    const after = row(await t.app.use.portfolio.home(ctx), ids.alpha!).results[0]!;
    expect(after.results).toBe(before.results + 5);
    t.core.db
      .prepare(
        `UPDATE insights_campaign_daily SET conversions = conversions - 5 WHERE campaign_id = ? AND date = ?`,
      )
      .run(campaigns.alpha, '2026-03-10');
    expect(row(await t.app.use.portfolio.home(ctx), ids.alpha!).results[0]!.results).toBe(before.results);
  });

  it('hands back the lines of the last read while they did not change, and a new line where one did', async () => {
    const first = await t.app.use.portfolio.home(ctx);
    const again = await t.app.use.portfolio.home(ctx);
    expect(again.items).toBe(first.items);
    expect(Object.isFrozen(first.items[0])).toBe(true);
    await t.app.use.goals.set(ctx, { accountId: ids.delta!, kind: 'CPA', target: 10 });
    const moved = await t.app.use.portfolio.home(ctx);
    expect(moved.items).not.toBe(first.items);
    for (const line of moved.items) {
      if (line.accountId === ids.delta) expect(line).not.toBe(row(first, ids.delta!));
      else expect(line).toBe(row(first, line.accountId));
    }
    expect(row(moved, ids.delta!).goal).toMatchObject({ kind: 'CPA', target: 10 });
    await t.app.use.goals.clear(ctx, { accountId: ids.delta! });
    expect(row(await t.app.use.portfolio.home(ctx), ids.delta!).goal).toBeNull();
  });

  it('shows only the workspace’s accounts, and a key only its mode', async () => {
    const p = await t.app.use.portfolio.home(ctx);
    expect(p.items.some((r) => r.accountId === ids.foreign)).toBe(false);
    const res = await call(t.url, '/v1/portfolio', { key });
    expect(res.status).toBe(200);
    const check = responseChecker(
      (await call(t.url, '/v1/openapi.json')).body as Parameters<typeof responseChecker>[0],
    );
    check('GET', '/v1/portfolio', res.status, res.body);
    const body = res.body as { data: Portfolio };
    expect(body.data.items.map((r) => r.name)).toEqual(['Bravo', 'Charlie', 'Delta', 'Echo', 'Alpha']);
  });
});

describe('portfolio.overview', () => {
  it('compares the last 30 days with the 30 before, per result type, with trend, issues and changes', async () => {
    const o = (await t.app.use.portfolio.overview(ctx, { accountId: ids.charlie! })) as AccountOverview;
    expect(o.range).toEqual({ from: '2026-02-09', to: '2026-03-10' });
    expect(o.previousRange).toEqual({ from: '2026-01-10', to: '2026-02-08' });
    expect(o.kpis.spend.value).toBe(1200);
    expect(o.kpis.spend.previous).toBe(320); // 8 days of February before the 9th
    expect(o.trend).toHaveLength(30);
    expect(o.trend[0]).toMatchObject({ date: '2026-02-09', spend: 40 });
    expect(o.results.map((g) => g.resultType).sort()).toEqual(['LEAD_FORM', 'PURCHASE']);
    expect(o.results.find((g) => g.resultType === 'LEAD_FORM')).toMatchObject({
      results: 120,
      previousResults: 32,
    });
    expect(o.topIssues.map((i) => i.severity)).toEqual(['CRITICAL']);
    expect(o.recentChanges).toEqual([]);
  });

  it("shows a write to an account's insights on its next line (figures kept under the account's revision)", async () => {
    const db = t.core.db;
    const purchases = (p: Portfolio) => row(p, ids.alpha!).results.find((g) => g.resultType === 'PURCHASE');
    const before = purchases(await t.app.use.portfolio.home(ctx));
    const bump = db.prepare(
      `UPDATE insights_campaign_daily SET conversions = conversions + ?, spend_micros = spend_micros + ?
       WHERE campaign_id = ? AND date = '2026-03-05'`,
    );
    bump.run(10, 5_000_000, campaigns.alpha);
    try {
      const after = purchases(await t.app.use.portfolio.home(ctx));
      expect(after?.results).toBe((before?.results ?? 0) + 10);
      expect(after?.spend).toBe((before?.spend ?? 0) + 5);
      expect(row(await t.app.use.portfolio.home(ctx), ids.alpha!).spendThisMonth).toBe(505);
    } finally {
      bump.run(-10, -5_000_000, campaigns.alpha);
    }
    expect(purchases(await t.app.use.portfolio.home(ctx))).toEqual(before);
  });

  it("shows the error of an account's newest sync when it failed, and names a disabled account's reason", async () => {
    const db = t.core.db;
    const run = db.prepare(
      `INSERT INTO sync_runs (id, account_id, kind, status, error, started_at, finished_at)
       VALUES (?, ?, 'full', ?, ?, ?, ?)`,
    );
    run.run(
      'sync_old_failed',
      ids.live,
      'failed',
      '{"type":"rate_limited","message":"old"}',
      '2026-03-08T00:00:00.000Z',
      '2026-03-08T00:01:00.000Z',
    );
    run.run(
      'sync_new_failed',
      ids.live,
      'failed',
      '{"type":"platform_error","message":"Meta answered 500"}',
      '2026-03-09T00:00:00.000Z',
      '2026-03-09T00:01:00.000Z',
    );
    run.run(
      'sync_done',
      ids.alpha,
      'completed',
      null,
      '2026-03-09T00:00:00.000Z',
      '2026-03-09T00:01:00.000Z',
    );
    db.prepare(`UPDATE ad_accounts SET status = 'disabled', disable_reason = 3 WHERE id = ?`).run(ids.echo);
    try {
      const p = await t.app.use.portfolio.home(ctx);
      expect(row(p, ids.live!).syncError).toBe('Meta answered 500');
      expect(row(p, ids.live!).attention.reasons).toContain('last sync failed');
      expect(row(p, ids.alpha!).syncError).toBeNull();
      expect(row(p, ids.echo!).blocked).toBe('account disabled (RISK_PAYMENT)');
      // The overview's line is the home's line.
      const o = (await t.app.use.portfolio.overview(ctx, { accountId: ids.live! })) as AccountOverview;
      expect(o.account).toEqual(row(p, ids.live!));
    } finally {
      db.prepare(
        `DELETE FROM sync_runs WHERE id IN ('sync_old_failed', 'sync_new_failed', 'sync_done')`,
      ).run();
      db.prepare(`UPDATE ad_accounts SET status = 'active', disable_reason = 0 WHERE id = ?`).run(ids.echo);
    }
  });

  it('is refused for another workspace’s account over /v1', async () => {
    const check = responseChecker(
      (await call(t.url, '/v1/openapi.json')).body as Parameters<typeof responseChecker>[0],
    );
    const res = await call(t.url, `/v1/accounts/${ids.foreign}/overview`, { key });
    expect(res.status).toBe(403);
    check('GET', `/v1/accounts/${ids.foreign}/overview`, res.status, res.body);
    const own = await call(t.url, `/v1/accounts/${ids.alpha}/overview?days=7`, { key });
    expect(own.status).toBe(200);
    check('GET', `/v1/accounts/${ids.alpha}/overview`, own.status, own.body);
    expect((await call(t.url, `/v1/accounts/${ids.alpha}/overview?days=3`, { key })).status).toBe(400);
    expect((own.body as { data: AccountOverview }).data.trend).toHaveLength(7);
  });
});

describe('pace and cap rules', () => {
  it('know month lengths, leave today out, and see a cap run out', () => {
    expect(monthOf('2028-02-10')).toEqual({ from: '2028-02-01', to: '2028-02-10', daysInMonth: 29 });
    expect(paceOf(0, 10_000_000, monthOf('2026-03-01'))).toEqual({ ratio: null, pace: 'unknown' });
    expect(paceOf(130_000_000, 10_000_000, monthOf('2026-03-11')).pace).toBe('ahead');
    expect(capRunsOutOn(0, 1, monthOf('2026-03-05'))).toBe('2026-03-05');
    expect(capRunsOutOn(1_000_000_000, 50_000_000, monthOf('2026-03-05'))).toBeNull();
  });
});
