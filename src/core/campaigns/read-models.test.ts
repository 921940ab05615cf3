// The read models' SQL on both engines: the campaign list page (sorts, filters, a deep page, totals),
// the detail with ad sets and ads, the latest diagnostic per campaign, the insights summary and daily
// series over JSON account lists (sums exact past 2^32), the portfolio's rows and goals. Rows are
// written with plain inserts through the boundary; the rollups and counts come from each engine's
// triggers.
import { afterAll, describe, expect, it } from 'vitest';
import { engineStores, ENGINES, seedWorkspaceRows } from '../../test-support/engines';
import { accountGoals, deleteGoal, effectiveGoal, goalRows, goalsOf, saveGoal } from '../goals/store';
import type { RequestContext, VisibleAccount } from '../identity/access';
import {
  AccountFigures,
  campaignDaily,
  campaignInsightsInWindows,
  firstInsightDates,
  insightsSummary,
} from '../insights';
import { resultsPerAccount, sumTotals } from '../insights/queries';
import {
  accountDays,
  accountTotals,
  accountWindowSums,
  campaignWindowSpends,
  dailyBudgetsMicros,
  liveIssues,
} from '../portfolio/store';
import type { Sql } from '../store/sql';
import { adIssuesOf, deliveryIssuesOf } from './blockers';
import { accountChanges, campaignChanges } from './changes';
import {
  campaignPage,
  campaignRows,
  campaignWithAccount,
  firstInsightDate,
  screenAdSetsAndAds,
  targetCpaMicros,
  toRows,
} from './store';
import { latestDiagnostics } from '../diagnostics/latest';
import { PageAnchors } from './page-anchors';
import { adSetsOf, adsOf } from './views';

const engines = engineStores();
afterAll(() => engines.stop(), 60_000);

const AT = '2026-03-01T00:00:00.000Z';
const CTX: RequestContext = { workspaceId: 'ws_a', plan: 'agency', userId: null, keyId: null, mode: 'all' };
/** Past 2^32 and adding up to just under 2^53: a sum that rounds anywhere is caught. */
const BIG = 3_000_000_000_000_000;

const ACCOUNTS: VisibleAccount[] = [
  account('act_1', 'EUR', 'Europe/Paris'),
  account('act_2', 'EUR', 'America/New_York'),
];

function account(id: string, currency: string, timezone: string): VisibleAccount {
  return {
    id,
    platformAccountId: `p_${id}`,
    name: id,
    mode: 'live',
    currency,
    timezone,
    connectionStatus: 'active',
    revision: 0,
  };
}

async function seed(sql: Sql): Promise<void> {
  await seedWorkspaceRows(sql, 'ws_a');
  await seedWorkspaceRows(sql, 'ws_b');
  for (const ws of ['ws_a', 'ws_b'])
    await sql.run(
      `INSERT INTO platform_connections (id, workspace_id, base_url, api_version, mode, token_encrypted, created_at,
         updated_at) VALUES (?, ?, 'http://x', 'v1', 'live', ?, ?, ?)`,
      [`conn_${ws}`, ws, Buffer.from('t'), AT, AT],
    );
  for (const [id, ws] of [
    ['act_1', 'ws_a'],
    ['act_2', 'ws_a'],
    ['act_x', 'ws_b'],
  ] as const)
    await sql.run(
      `INSERT INTO ad_accounts (id, workspace_id, connection_id, platform_account_id, mode, name, currency, timezone,
         status, connected_at) VALUES (?, ?, ?, ?, 'live', ?, 'EUR', 'UTC', 'active', ?)`,
      [id, ws, `conn_${ws}`, `p_${id}`, id, AT],
    );
  // Campaigns: names sort Alpha < Beta < Delta < Gamma (Delta in the second account, Xeno elsewhere).
  const campaigns: Array<[string, string, string, string, number | null, string | null]> = [
    ['c_beta', 'act_1', 'Beta', 'ACTIVE', 50_000_000, 'PURCHASE'],
    ['c_alpha', 'act_1', 'Alpha', 'PAUSED', null, 'LEAD'],
    ['c_gamma', 'act_1', 'Gamma', 'ACTIVE', null, 'PURCHASE'],
    ['c_delta', 'act_2', 'Delta', 'ACTIVE', 20_000_000, null],
    ['c_xeno', 'act_x', 'Xeno', 'ACTIVE', 10_000_000, null],
  ];
  for (const [id, accountId, name, status, budget, resultType] of campaigns)
    await sql.run(
      `INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective,
         buying_type, daily_budget_micros, created_time, updated_time, result_type, result_name)
       VALUES (?, ?, ?, ?, ?, ?, 'OUTCOME_SALES', 'AUCTION', ?, ?, ?, ?, ?)`,
      [
        id,
        accountId,
        `p_${id}`,
        name,
        status,
        status,
        budget,
        `2026-01-0${name.length}T00:00:00+0000`,
        AT,
        resultType,
        resultType,
      ],
    );
  // Gamma (no campaign budget) spends its ad sets' budgets: one active, one paused.
  const adSets: Array<[string, string, string, string, number | null]> = [
    ['s_g1', 'c_gamma', 'Gamma one', 'ACTIVE', 7_000_000],
    ['s_g2', 'c_gamma', 'Gamma two', 'PAUSED', 9_000_000],
    ['s_b1', 'c_beta', 'Beta one', 'ACTIVE', null],
  ];
  for (const [id, campaignId, name, status, budget] of adSets)
    await sql.run(
      `INSERT INTO ad_sets (id, account_id, campaign_id, platform_ad_set_id, name, status, effective_status,
         daily_budget_micros, targeting, learning_status, created_time, updated_time)
       VALUES (?, 'act_1', ?, ?, ?, ?, ?, ?, '{"geo_locations":{"countries":["FR"]},"genders":[2]}', 'LEARNING', ?, ?)`,
      [id, campaignId, `p_${id}`, name, status, status, budget, AT, AT],
    );
  const ads: Array<[string, string, string, string, string, string]> = [
    [
      'd_g1',
      's_g1',
      'c_gamma',
      'Ad rejected',
      'DISAPPROVED',
      '[{"summary":"Policy","message":"No","level":"AD"}]',
    ],
    [
      'd_g2',
      's_g1',
      'c_gamma',
      'Ad warned',
      'ACTIVE',
      '[{"errorCode":7,"summary":"Warn","message":"m","level":"AD"}]',
    ],
    ['d_g3', 's_g2', 'c_gamma', 'Ad fine', 'ACTIVE', '[]'],
    ['d_b1', 's_b1', 'c_beta', 'Ad beta', 'WITH_ISSUES', '[]'],
  ];
  for (const [id, adSetId, campaignId, name, status, issues] of ads)
    await sql.run(
      `INSERT INTO ads (id, account_id, campaign_id, ad_set_id, platform_ad_id, name, status, effective_status,
         issues_info, created_time, updated_time) VALUES (?, 'act_1', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [id, campaignId, adSetId, `p_${id}`, name, status, status, issues, AT, AT],
    );
  // Days: Beta spends BIG once and small amounts; Gamma a little more each day; Delta in act_2.
  const days: Array<[string, string, string, number, number, number]> = [
    ['c_beta', 'act_1', '2026-02-27', BIG, 3, 9_000_000],
    ['c_beta', 'act_1', '2026-02-28', 1_500_000_000_000_001, 1, 0],
    ['c_gamma', 'act_1', '2026-02-27', 2_000_000, 2, 5_000_000],
    ['c_gamma', 'act_1', '2026-02-28', 4_000_000, 0, 0],
    ['c_gamma', 'act_1', '2026-03-01', 6_000_000, 1, 0],
    ['c_alpha', 'act_1', '2026-02-10', 1_000_000, 1, 0],
    ['c_delta', 'act_2', '2026-02-28', 8_000_000, 4, 1_000_000],
    ['c_xeno', 'act_x', '2026-02-28', 99_000_000, 9, 0],
  ];
  for (const [campaignId, accountId, date, spend, conversions, revenue] of days)
    await sql.run(
      `INSERT INTO insights_campaign_daily (campaign_id, date, account_id, spend_micros, impressions, clicks,
         conversions, revenue_micros, reach, link_clicks) VALUES (?, ?, ?, ?, 1000, 10, ?, ?, 500, 5)`,
      [campaignId, date, accountId, spend, conversions, revenue],
    );
  for (const [adSetId, spend, conversions] of [
    ['s_g1', 9_000_000, 3],
    ['s_g2', 3_000_000, 0],
  ] as const)
    await sql.run(
      `INSERT INTO insights_ad_set_daily (ad_set_id, date, account_id, campaign_id, spend_micros, conversions)
       VALUES (?, '2026-02-28', 'act_1', 'c_gamma', ?, ?)`,
      [adSetId, spend, conversions],
    );
  for (const [adId, adSetId, date, spend] of [
    ['d_g1', 's_g1', '2026-02-27', 1_000_000],
    ['d_g1', 's_g1', '2026-02-28', 2_000_000],
    ['d_g2', 's_g1', '2026-02-28', 6_000_000],
  ] as const)
    await sql.run(
      `INSERT INTO insights_ad_daily (ad_id, date, account_id, campaign_id, ad_set_id, spend_micros, impressions,
         clicks, conversions) VALUES (?, ?, 'act_1', 'c_gamma', ?, ?, 100, 2, 1)`,
      [adId, date, adSetId, spend],
    );
  // Diagnostics: Gamma's newest completed one wins over an older one and a newer pending one.
  const diagnostics: Array<[string, string, string, string | null, string | null]> = [
    ['diag_1', 'c_gamma', 'completed', 'LOW', '2026-02-20T00:00:00Z'],
    ['diag_2', 'c_gamma', 'completed', 'HIGH', '2026-02-25T00:00:00Z'],
    ['diag_3', 'c_gamma', 'pending', null, null],
    ['diag_4', 'c_beta', 'completed', 'MEDIUM', '2026-02-21T00:00:00Z'],
  ];
  for (const [id, campaignId, status, risk, completedAt] of diagnostics)
    await sql.run(
      `INSERT INTO diagnostics (id, workspace_id, account_id, campaign_id, status, date_from, date_to, risk_level,
         issues_detected, created_at, completed_at) VALUES (?, 'ws_a', 'act_1', ?, ?, '2026-02-01', '2026-02-28', ?, 2, ?, ?)`,
      [id, campaignId, status, risk, AT, completedAt],
    );
  for (const [key, time, campaignId, adSetId, type] of [
    ['e1', '2026-02-27T10:00:00Z', 'c_gamma', null, 'update_campaign_budget'],
    ['e2', '2026-02-28T10:00:00Z', 'c_gamma', 's_g1', 'update_ad_set_targeting'],
    ['e3', '2026-02-26T10:00:00Z', null, null, 'update_account'],
  ] as const)
    await sql.run(
      `INSERT INTO change_events (account_id, event_key, event_time, event_type, change_type, object_type,
         platform_object_id, object_name, campaign_id, ad_set_id, old_value, new_value)
       VALUES ('act_1', ?, ?, ?, 'budget', 'CAMPAIGN', 'p', 'obj', ?, ?, '10', '20')`,
      [key, time, type, campaignId, adSetId],
    );
  for (const [id, campaignId, state, severity] of [
    ['iss_1', 'c_gamma', 'open', 'HIGH'],
    ['iss_2', 'c_beta', 'acknowledged', 'LOW'],
    ['iss_3', null, 'resolved', 'CRITICAL'],
    ['iss_4', 'c_gamma', 'open', 'HIGH'],
  ] as const)
    await sql.run(
      `INSERT INTO issues (id, workspace_id, account_id, campaign_id, type, entity_id, entity_name, state, severity,
         peak_severity, title, description, evidence, diagnostic_id, opened_at, updated_at)
       VALUES (?, 'ws_a', 'act_1', ?, 't', ?, 'n', ?, ?, ?, 't', 'd', '{}', 'diag_1', ?, ?)`,
      [id, campaignId, id, state, severity, severity, AT, AT],
    );
}

const WINDOW = { from: '2026-02-24', to: '2026-03-01' };

describe.each(ENGINES)('read models on %s', (engine) => {
  it('pages the whole workspace by name from remembered page anchors, and anew once the list changed', async () => {
    const { sql, close } = await engines.open(engine);
    await seed(sql);
    // Enough campaigns that pages start past the first: 3 per page over 4 + 14 campaigns.
    for (let i = 0; i < 14; i++)
      await sql.run(
        `INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective,
           buying_type, created_time, updated_time)
         VALUES (?, ?, ?, ?, 'ACTIVE', 'ACTIVE', 'OUTCOME_SALES', 'AUCTION', ?, ?)`,
        [`c_n${i}`, i % 2 ? 'act_1' : 'act_2', `p_n${i}`, `Name ${String(i % 7).padStart(2, '0')}`, AT, AT],
      );
    const anchors = new PageAnchors();
    const pageOf = async (sort: string, page: number, kept?: PageAnchors) =>
      (
        await campaignPage(
          sql,
          CTX,
          null,
          { sort, page, pageSize: 3, wholeWorkspace: true },
          () => WINDOW,
          () => null,
          kept,
        )
      ).rows.map((r) => r.id);
    const walk = async (sort: string, pages: number[], kept?: PageAnchors) => {
      const out: string[][] = [];
      for (const page of pages) out.push(await pageOf(sort, page, kept));
      return out;
    };
    // In turn, backwards and skipping about: always the pages read without anchors (ties on name by id).
    const orders = [
      [1, 2, 3, 4, 5, 6, 7],
      [7, 5, 6, 2, 4, 1, 3, 7],
    ];
    for (const sort of ['name', '-name'])
      for (const pages of orders) expect(await walk(sort, pages, anchors)).toEqual(await walk(sort, pages));
    expect((await pageOf('name', 6, anchors)).length).toBe(3);
    expect(await pageOf('name', 7, anchors)).toEqual([]);
    // A campaign renamed to the front, and one added: the anchors of the old list no longer apply.
    await sql.run(`UPDATE campaigns SET name = 'Aaa' WHERE id = 'c_n6'`);
    await sql.run(
      `INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective,
         buying_type, created_time, updated_time)
       VALUES ('c_new', 'act_1', 'p_new', 'Name 03', 'ACTIVE', 'ACTIVE', 'OUTCOME_SALES', 'AUCTION', ?, ?)`,
      [AT, AT],
    );
    for (const sort of ['name', '-name'])
      expect(await walk(sort, [4, 2, 7, 1], anchors)).toEqual(await walk(sort, [4, 2, 7, 1]));
    expect((await pageOf('name', 1, anchors))[0]).toBe('c_n6');
    await close();
  });

  it('pages campaigns by name and by spend, filtered by account and status, with totals and insights', async () => {
    const { sql, close } = await engines.open(engine);
    await seed(sql);
    const page = (filter: Partial<Parameters<typeof campaignPage>[3]>, accounts = ACCOUNTS) =>
      campaignPage(
        sql,
        CTX,
        accounts,
        { sort: 'name', page: 1, pageSize: 2, wholeWorkspace: accounts === ACCOUNTS, ...filter },
        () => WINDOW,
        () => ({ from: '2026-02-01', to: '2026-02-23' }),
      );
    const first = await page({});
    expect(first.total).toBe(4);
    expect(first.rows.map((r) => r.id)).toEqual(['c_alpha', 'c_beta']);
    expect(first.rows[1]).toMatchObject({
      ad_set_count: 1,
      ad_count: 1,
      currency: 'EUR',
    });
    expect(first.insights.get('c_beta')?.spend).toBe(4_500_000_000);
    expect(first.previous?.get('c_alpha')?.spend).toBe(1);
    const deep = await page({ page: 2 });
    expect(deep.rows.map((r) => r.id)).toEqual(['c_delta', 'c_gamma']);
    expect((await page({ page: 3 })).rows).toEqual([]);
    expect((await page({ sort: '-name', pageSize: 10 })).rows.map((r) => r.id)).toEqual([
      'c_gamma',
      'c_delta',
      'c_beta',
      'c_alpha',
    ]);
    expect((await page({ sort: '-spend', pageSize: 10 })).rows.map((r) => r.id)).toEqual([
      'c_beta',
      'c_gamma',
      'c_delta',
      'c_alpha',
    ]);
    expect((await page({ sort: 'spend', pageSize: 3 })).rows.map((r) => r.id)).toEqual([
      'c_alpha',
      'c_delta',
      'c_gamma',
    ]);
    // The whole workspace without its accounts read: the same pages, by name and by spend.
    // Each row's window is its own account's (act_2's here ends a day earlier).
    const windowOf = (a: { id: string }) =>
      a.id === 'act_2' ? { from: '2026-02-24', to: '2026-02-28' } : WINDOW;
    const unread = (filter: Partial<Parameters<typeof campaignPage>[3]>, windows = windowOf) =>
      campaignPage(
        sql,
        CTX,
        null,
        { sort: 'name', page: 1, pageSize: 2, wholeWorkspace: true, ...filter },
        windows,
        () => null,
      );
    const unreadFirst = await unread({});
    expect(unreadFirst.total).toBe(4);
    expect(unreadFirst.rows.map((r) => r.id)).toEqual(['c_alpha', 'c_beta']);
    expect(unreadFirst.previous).toBeNull();
    // Gamma (act_1) over act_1's window, to 1 March: 2 + 4 + 6; over act_2's it would be 6.
    const second = await unread({ page: 2 });
    expect(second.rows.map((r) => [r.id, second.insights.get(r.id)?.spend])).toEqual([
      ['c_delta', 8],
      ['c_gamma', 12],
    ]);
    expect((await unread({ sort: '-spend', pageSize: 10 }, () => WINDOW)).rows.map((r) => r.id)).toEqual([
      'c_beta',
      'c_gamma',
      'c_delta',
      'c_alpha',
    ]);
    await expect(
      campaignPage(sql, CTX, null, { sort: 'name', page: 1, pageSize: 2 }, () => WINDOW),
    ).rejects.toThrow(/not the whole workspace/);
    const one = [ACCOUNTS[0] as VisibleAccount];
    const active = await page({ status: 'ACTIVE', pageSize: 10 }, one);
    expect(active.total).toBe(2);
    expect(active.rows.map((r) => r.id)).toEqual(['c_beta', 'c_gamma']);
    expect((await page({ pageSize: 10, sort: 'createdAt' }, one)).total).toBe(3);
    await close();
  });

  it("finds each campaign's newest completed diagnostic in a long history, past newer unfinished ones", async () => {
    const { sql, close } = await engines.open(engine);
    await seed(sql);
    const add = (id: string, status: string, completedAt: string | null) =>
      sql.run(
        `INSERT INTO diagnostics (id, workspace_id, account_id, campaign_id, status, date_from, date_to, risk_level,
           issues_detected, created_at, completed_at) VALUES (?, 'ws_a', 'act_1', 'c_beta', ?, '2026-02-01', '2026-02-28', 'LOW', 1, ?, ?)`,
        [id, status, AT, completedAt],
      );
    // A diagnosis after every sync: 40 completed, the last two at the same instant (the higher ID wins).
    for (let i = 0; i < 40; i++)
      await add(
        `hist_${String(i).padStart(2, '0')}`,
        'completed',
        `2026-03-01T${String(i % 24).padStart(2, '0')}:${String(Math.floor(i / 24)).padStart(2, '0')}:00Z`,
      );
    await add('hist_zz', 'completed', '2026-03-01T23:59:00Z');
    await add('hist_zy', 'completed', '2026-03-01T23:59:00Z');
    await add('hist_failed', 'failed', '2026-03-02T00:00:00Z');
    await add('hist_running', 'running', null);
    const latest = await latestDiagnostics(sql, ['c_beta', 'c_gamma']);
    expect(latest.get('c_beta')?.id).toBe('hist_zz');
    expect(latest.get('c_gamma')?.id).toBe('diag_2');
    expect((await latestDiagnostics(sql, [])).size).toBe(0);
    await close();
  });

  it('reads the table rows, the latest diagnostic per campaign, the detail and its blockers', async () => {
    const { sql, close } = await engines.open(engine);
    await seed(sql);
    const rows = await campaignRows(sql, CTX, 'AND c.account_id = ?', ['act_1']);
    expect(rows.map((r) => r.id)).toEqual(['c_alpha', 'c_beta', 'c_gamma']);
    const latest = await latestDiagnostics(sql, ['c_alpha', 'c_beta', 'c_gamma', 'c_unknown']);
    expect(latest.get('c_gamma')).toEqual({
      id: 'diag_2',
      riskLevel: 'HIGH',
      issuesDetected: 2,
      completedAt: '2026-02-25T00:00:00Z',
    });
    expect(latest.get('c_beta')?.id).toBe('diag_4');
    expect(latest.has('c_alpha')).toBe(false);
    const metrics = await campaignInsightsInWindows(sql, [{ accountId: 'act_1', ...WINDOW }]);
    const table = await toRows(sql, rows, metrics, null);
    expect(table.map((r) => [r.id, r.spend, r.adSetCount, r.latestDiagnostic?.riskLevel ?? null])).toEqual([
      ['c_alpha', 0, 0, null],
      ['c_beta', 4_500_000_000, 1, 'MEDIUM'],
      ['c_gamma', 12, 2, 'HIGH'],
    ]);

    const { adSets, ads } = await screenAdSetsAndAds(sql, { id: 'c_gamma' }, '2026-02-01', '2026-02-28');
    expect(adSets.map((s) => [s.id, s.spend, s.conversions, s.adCount])).toEqual([
      ['s_g1', 9, 3, 2],
      ['s_g2', 3, 0, 1],
    ]);
    expect(adSets[0]?.targeting).toEqual({
      geoLocations: ['FR'],
      ageMin: null,
      ageMax: null,
      genders: ['female'],
    });
    expect(ads.map((d) => [d.id, d.adSetName, d.spend, d.impressions])).toEqual([
      ['d_g2', 'Gamma one', 6, 100],
      ['d_g1', 'Gamma one', 3, 200],
      ['d_g3', 'Gamma two', 0, 0],
    ]);
    expect((await adSetsOf(sql, 'c_gamma')).map((s) => [s.name, s.adCount, s.learningPhaseStatus])).toEqual([
      ['Gamma one', 2, 'IN_LEARNING'],
      ['Gamma two', 1, 'IN_LEARNING'],
    ]);
    expect((await adsOf(sql, 'c_gamma')).map((d) => d.id)).toEqual(['d_g1', 'd_g2', 'd_g3']);

    const blockers = await deliveryIssuesOf(sql, ['c_gamma', 'c_beta', 'c_alpha']);
    expect(Object.fromEntries(blockers)).toEqual({
      c_gamma: { disapprovedAds: 1, adsWithIssues: 1 },
      c_beta: { disapprovedAds: 0, adsWithIssues: 1 },
      c_alpha: { disapprovedAds: 0, adsWithIssues: 0 },
    });
    expect((await adIssuesOf(sql, 'c_gamma')).map((i) => [i.adId, i.summary, i.errorCode])).toEqual([
      ['d_g1', 'Policy', null],
      ['d_g2', 'Warn', 7],
    ]);
    expect((await campaignChanges(sql, 'c_gamma')).map((e) => [e.eventType, e.adSet?.name ?? null])).toEqual([
      ['update_ad_set_targeting', 'Gamma one'],
      ['update_campaign_budget', null],
    ]);
    expect((await accountChanges(sql, 'act_1', 2)).map((e) => e.eventType)).toEqual([
      'update_ad_set_targeting',
      'update_campaign_budget',
    ]);
    expect(await campaignWithAccount(sql, 'c_delta')).toMatchObject({ name: 'Delta', currency: 'EUR' });
    expect(await firstInsightDate(sql, 'c_gamma')).toBe('2026-02-27');
    expect(await firstInsightDate(sql, 'c_missing')).toBeUndefined();
    await close();
  });

  it('sums insights over JSON account and campaign lists exactly, day by day', async () => {
    const { sql, close } = await engines.open(engine);
    await seed(sql);
    const totals = await sumTotals(sql, { accountIds: ['act_1', 'act_2'] }, WINDOW);
    expect(totals.spendMicros).toBe(BIG + 1_500_000_000_000_001 + 12_000_000 + 8_000_000);
    expect(totals.conversions).toBe(11);
    const summary = await insightsSummary(sql, {
      accountIds: ['act_1', 'act_2'],
      from: '2026-02-27',
      to: '2026-02-28',
      currency: 'EUR',
    });
    expect(summary.totals.spend).toBe(4_500_000_014);
    expect(summary.totals.conversions).toBe(10);
    expect(summary.timeSeries.map((d) => [d.date, d.spend])).toEqual([
      ['2026-02-27', 3_000_000_002],
      ['2026-02-28', 1_500_000_012],
    ]);
    expect(summary.breakdown.map((b) => [b.entity.id, b.entity.name])).toEqual([
      ['c_beta', 'Beta'],
      ['c_delta', 'Delta'],
      ['c_gamma', 'Gamma'],
    ]);
    expect(summary.trends.spendChange).toBeNull();
    // A campaign selection stays inside the listed accounts.
    const gamma = await insightsSummary(sql, {
      accountIds: ['act_1'],
      campaignIds: ['c_gamma', 'c_delta'],
      ...WINDOW,
      currency: 'EUR',
    });
    expect(gamma.totals.spend).toBe(12);
    expect((await campaignDaily(sql, 'c_gamma', '2026-02-28', '2026-03-02')).map((d) => d.spend)).toEqual([
      4, 6, 0,
    ]);
    const windows = await campaignInsightsInWindows(sql, [
      { accountId: 'act_1', from: '2026-03-01', to: '2026-03-01' },
      { accountId: 'act_2', ...WINDOW },
    ]);
    expect([...windows].map(([id, m]) => [id, m.spend]).sort()).toEqual([
      ['c_delta', 8],
      ['c_gamma', 6],
    ]);
    expect(Object.fromEntries(await firstInsightDates(sql, ['act_1', 'act_2', 'act_none']))).toEqual({
      act_1: '2026-02-10',
      act_2: '2026-02-28',
      act_none: undefined,
    });
    await close();
  });

  it('breaks a summary of several accounts down per account, with results per type kept until a write or a sync', async () => {
    const { sql, close } = await engines.open(engine);
    await seed(sql);
    const memo = new AccountFigures();
    const query = {
      accountIds: ['act_1', 'act_2'],
      from: '2026-02-10',
      to: '2026-02-28',
      currency: 'EUR',
      accountNames: new Map([
        ['act_1', 'Acme'],
        ['act_2', 'Other'],
      ]),
    };
    const byCampaign = await insightsSummary(sql, query, memo);
    const byAccount = await insightsSummary(sql, { ...query, breakdown: 'account' }, memo);
    const lines = (s: typeof byAccount) =>
      s.breakdown.map((b) => [b.entity, b.spend, b.conversions, b.revenue, b.resultType, b.resultName]);
    // act_1 counts purchases (Beta, Gamma) and a lead (Alpha): MIXED; Delta counts no named result.
    expect(lines(byAccount)).toEqual([
      [{ type: 'account', id: 'act_1', name: 'Acme' }, 4_500_000_007, 7, 14, 'MIXED', null],
      [{ type: 'account', id: 'act_2', name: 'Other' }, 8, 4, 1, null, null],
    ]);
    expect(byAccount.breakdown.map((b) => b.previous)).toEqual([
      { spend: 0, conversions: 0, cpa: null, roas: null },
      { spend: 0, conversions: 0, cpa: null, roas: null },
    ]);
    // Everything but the breakdown is the same whichever way it is broken down.
    const { breakdown: _a, ...restByAccount } = byAccount;
    const { breakdown: _c, ...restByCampaign } = byCampaign;
    expect(restByAccount).toEqual(restByCampaign);
    expect(byAccount.resultsByType.map((g) => [g.resultType, g.campaigns, g.results])).toEqual([
      ['PURCHASE', 2, 6],
      [null, 1, 4],
      ['LEAD', 1, 1],
    ]);
    // A campaign row written in the window moves the account's revision: its results are summed again.
    await sql.run(
      `INSERT INTO insights_campaign_daily (campaign_id, date, account_id, spend_micros, impressions, clicks,
         conversions, revenue_micros, reach, link_clicks) VALUES ('c_alpha', '2026-02-20', 'act_1', 3000000, 1, 1, 5, 0, 1, 1)`,
    );
    // So does a change of what a campaign counts (a sync writes it), without any row of insights.
    await sql.run(`UPDATE campaigns SET result_type = 'LEAD', result_name = 'LEAD' WHERE id = 'c_delta'`);
    const after = await insightsSummary(sql, { ...query, breakdown: 'account' }, memo);
    // The days added across accounts (kept under their revisions) are added again too.
    expect(after.totals.spend).toBeCloseTo(byAccount.totals.spend + 3, 2);
    const dayOf = (s: typeof after) => s.timeSeries.find((d) => d.date === '2026-02-20');
    expect(dayOf(after)?.spend).toBeCloseTo((dayOf(byAccount)?.spend ?? 0) + 3, 2);
    expect(after.resultsByType.map((g) => [g.resultType, g.campaigns, g.results])).toEqual([
      ['PURCHASE', 2, 6],
      ['LEAD', 2, 10],
    ]);
    expect(after.breakdown.map((b) => [b.entity.id, b.resultType])).toEqual([
      ['act_1', 'MIXED'],
      ['act_2', 'LEAD'],
    ]);
    await close();
  });

  it("moves an account's revision with every write its figures come from, and keeps figures until it moves", async () => {
    const { sql, close } = await engines.open(engine);
    await seed(sql);
    const figures = new AccountFigures();
    const revisionOf = async (id: string) => (await figures.revisions(sql, [id])).get(id) as number;
    const computed: string[][] = [];
    const spendOf = async () => {
      const revisions = await figures.revisions(sql, ['act_1', 'act_2', 'act_none']);
      return figures.each<number>(
        revisions,
        () => 'spend',
        async (ids) => {
          computed.push(ids);
          const rows = await sql.all<{ id: string; n: number }>(
            `SELECT account_id AS id, sum(spend_micros) AS n FROM insights_account_daily
             WHERE account_id IN ('act_1', 'act_2') GROUP BY account_id`,
          );
          return new Map(rows.filter((r) => ids.includes(r.id)).map((r) => [r.id, r.n]));
        },
        -1,
      );
    };
    // In either order: PostgreSQL hands rows back as they lie (a row written again moves).
    expect([...(await spendOf())].sort(([a], [b]) => a.localeCompare(b))).toEqual([
      ['act_1', BIG + 1_500_000_000_000_001 + 13_000_000],
      ['act_2', 8_000_000],
    ]);
    // Unchanged: kept, nothing computed; an account that does not exist has no revision.
    await spendOf();
    expect(computed.map((ids) => ids.toSorted())).toEqual([['act_1', 'act_2']]);
    expect(await figures.revisions(sql, ['act_none'])).toEqual(new Map());

    // Each kind of write moves its account's revision only, and the next read computes that account only.
    const writes: Array<[string, string]> = [
      [
        `INSERT INTO insights_campaign_daily (campaign_id, date, account_id, spend_micros, impressions, clicks,
           conversions, revenue_micros, reach, link_clicks) VALUES ('c_delta', '2026-03-01', 'act_2', 1, 0, 0, 0, 0, 0, 0)`,
        'act_2',
      ],
      [
        `UPDATE insights_campaign_daily SET spend_micros = 2 WHERE campaign_id = 'c_delta' AND date = '2026-03-01'`,
        'act_2',
      ],
      [`DELETE FROM insights_campaign_daily WHERE campaign_id = 'c_delta' AND date = '2026-03-01'`, 'act_2'],
      [`UPDATE campaigns SET daily_budget_micros = 1 WHERE id = 'c_beta'`, 'act_1'],
      [`UPDATE ad_sets SET effective_status = 'PAUSED' WHERE id = 's_g1'`, 'act_1'],
    ];
    for (const [statement, moved] of writes) {
      const before = { act_1: await revisionOf('act_1'), act_2: await revisionOf('act_2') };
      await sql.run(statement);
      const still = moved === 'act_1' ? 'act_2' : 'act_1';
      expect(await revisionOf(moved), statement).toBeGreaterThan(before[moved as 'act_1' | 'act_2']);
      expect(await revisionOf(still), statement).toBe(before[still]);
      computed.length = 0;
      await spendOf();
      expect(computed, statement).toEqual([[moved]]);
    }
    expect((await spendOf()).get('act_2')).toBe(8_000_000);
    await close();
  });

  it("gives the portfolio's sums, budgets, results per type and issues per account", async () => {
    const { sql, close } = await engines.open(engine);
    await seed(sql);
    expect(await accountTotals(sql, 'act_1', '2026-02-28', '2026-03-01')).toEqual({
      spendMicros: 1_500_000_000_000_001 + 10_000_000,
      impressions: 3000,
      clicks: 30,
      linkClicks: 15,
    });
    const sums = await accountWindowSums(sql, [
      { accountId: 'act_1', monthFrom: '2026-03-01', today: '2026-03-01', weekFrom: '2026-02-23' },
      { accountId: 'act_2', monthFrom: '2026-02-01', today: '2026-02-28', weekFrom: '2026-02-22' },
    ]);
    expect(sums.get('act_1')).toEqual({
      monthMicros: 6_000_000,
      monthToYesterdayMicros: 0,
      weekMicros: BIG + 1_500_000_000_000_001 + 12_000_000,
    });
    expect(sums.get('act_2')).toEqual({
      monthMicros: 8_000_000,
      monthToYesterdayMicros: 0,
      weekMicros: 8_000_000,
    });
    expect((await accountDays(sql, 'act_1', '2026-02-28', '2026-03-05')).map((d) => d.date)).toEqual([
      '2026-02-28',
      '2026-03-01',
    ]);
    const results = await resultsPerAccount(sql, ['act_1', 'act_2', 'act_none'], '2026-02-01', '2026-03-01');
    expect([...results.keys()].sort()).toEqual(['act_1', 'act_2']);
    expect(results.get('act_2')?.map((g) => [g.spend_micros, g.results, g.revenue_micros])).toEqual([
      [8_000_000, 4, 1_000_000],
    ]);
    expect(results.get('act_1')).toEqual([
      {
        result_type: 'PURCHASE',
        result_name: 'PURCHASE',
        campaigns: 2,
        results: 7,
        spend_micros: BIG + 1_500_000_000_000_001 + 12_000_000,
        revenue_micros: 14_000_000,
      },
      {
        result_type: 'LEAD',
        result_name: 'LEAD',
        campaigns: 1,
        results: 1,
        spend_micros: 1_000_000,
        revenue_micros: 0,
      },
    ]);
    // act_1: Beta's own 50 (active) + Gamma's active ad set 7; Alpha is paused. act_2: Delta's 20.
    expect(Object.fromEntries(await dailyBudgetsMicros(sql, ['act_1', 'act_2', 'act_none']))).toEqual({
      act_1: 57_000_000,
      act_2: 20_000_000,
      act_none: 0,
    });
    const live = await liveIssues(sql, 'ws_a');
    expect(live.sort((a, b) => a.severity.localeCompare(b.severity))).toEqual([
      { account_id: 'act_1', campaign_id: 'c_gamma', severity: 'HIGH', n: 2 },
      { account_id: 'act_1', campaign_id: 'c_beta', severity: 'LOW', n: 1 },
    ]);
    const spends = await campaignWindowSpends(sql, [
      { campaignId: 'c_gamma', from: '2026-02-28', to: '2026-03-01' },
      { campaignId: 'c_beta', from: '2030-01-01', to: '2030-01-07' },
    ]);
    // Each campaign over its own window; one without rows there has none.
    expect(Object.fromEntries(spends)).toEqual({ c_gamma: 10_000_000 });
    expect((await campaignWindowSpends(sql, [])).size).toBe(0);
    await close();
  });

  it('sets, replaces and clears goals, and judges a campaign by its own else the account goal', async () => {
    const { sql, close } = await engines.open(engine);
    await seed(sql);
    const goal = (campaignId: string | null, kind: 'CPA' | 'ROAS', target: number) =>
      saveGoal(sql, {
        account_id: 'act_1',
        campaign_id: campaignId,
        kind,
        target,
        updated_at: AT,
        updated_by: null,
      });
    await goal(null, 'ROAS', 2);
    await goal('c_gamma', 'CPA', 12.5);
    await goal('c_gamma', 'CPA', 25.25);
    await goal(null, 'ROAS', 1.5);
    expect((await goalRows(sql, 'act_1')).map((g) => [g.campaign_id, g.kind, g.target])).toEqual([
      [null, 'ROAS', 1.5],
      ['c_gamma', 'CPA', 25.25],
    ]);
    const goals = await goalsOf(sql, 'act_1');
    expect(effectiveGoal(goals, 'c_gamma')).toEqual({ kind: 'CPA', target: 25.25, source: 'campaign' });
    expect(effectiveGoal(goals, 'c_beta')).toEqual({ kind: 'ROAS', target: 1.5, source: 'account' });
    // Account-level goals only, several accounts at once (the portfolio's read).
    expect(Object.fromEntries(await accountGoals(sql, ['act_1', 'act_2']))).toEqual({
      act_1: { kind: 'ROAS', target: 1.5 },
    });
    expect(await targetCpaMicros(sql, 'c_gamma')).toBe(25_250_000);
    expect(await targetCpaMicros(sql, 'c_beta')).toBeNull();
    expect(await deleteGoal(sql, 'act_1', 'c_gamma')).toBe(true);
    expect(await deleteGoal(sql, 'act_1', 'c_gamma')).toBe(false);
    expect(await deleteGoal(sql, 'act_1', null)).toBe(true);
    expect(await goalsOf(sql, 'act_1')).toEqual({ account: null, byCampaign: new Map() });
    await close();
  });
});
