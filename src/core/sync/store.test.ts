// The sync's and the accounts' stores on both engines behind the store boundary: the writer's upserts
// (an identical re-read writes nothing, a changed row is counted once), the object maps, sync runs
// (one running per account, the latest by a real column), the account read model (counts, the 30-day
// spend summed from the rollup, the latest run's state) and the token's expiry.
import { afterAll, describe, expect, it } from 'vitest';
import { engineStores, ENGINES, seedWorkspaceRows } from '../../test-support/engines';
import {
  readAccounts,
  countAccounts,
  activePlatformAccountIds,
  runningSyncStartedAt,
} from '../accounts/store';
import { accountIdByPlatformId, connectedDemoAccountIds } from '../accounts/store';
import type { Core } from '../core';
import type { RequestContext } from '../identity/access';
import type { PlatformInsightRow } from '../platform/parse';
import type { Sql } from '../store/sql';
import { expireConnection, getAdAccount, listAdAccounts, resolveAdAccount } from './accounts';
import {
  beginRun,
  finishRun,
  lastCompletedRun,
  latestRun,
  pausedRuns,
  reapStaleRuns,
  recordProgress,
  runningRun,
} from './runs';
import { announceIfExpiring, recordTokenInfo } from './token-expiry';
import { loadObjectMaps, SyncWriter } from './upserts';

const engines = engineStores();
afterAll(() => engines.stop(), 60_000);

const NOW = new Date('2026-03-15T12:00:00.000Z');
const AT = NOW.toISOString();
const ctx: RequestContext = { workspaceId: 'ws_1', plan: 'agency', userId: null, keyId: null, mode: 'all' };

/** A workspace, one connection and accounts on it (the first one in UTC, the second in Los Angeles). */
async function seed(sql: Sql): Promise<void> {
  await seedWorkspaceRows(sql, 'ws_1');
  await sql.run(
    `INSERT INTO platform_connections (id, workspace_id, base_url, api_version, mode, token_encrypted, created_at, updated_at)
     VALUES ('conn_1', 'ws_1', 'demo:', 'v25.0', 'test', ?, ?, ?)`,
    [Buffer.from([0]), AT, AT],
  );
  const accounts: [string, string, string, string, string][] = [
    ['act_Aaaaaaaaaaaaaaaa', 'act_1', 'Alpha', 'UTC', 'test'],
    ['act_Bbbbbbbbbbbbbbbb', 'act_2', 'Bravo', 'America/Los_Angeles', 'live'],
    ['act_Cccccccccccccccc', 'act_3', 'Charlie', 'UTC', 'test'],
  ];
  for (const [id, platformId, name, timezone, mode] of accounts)
    await sql.run(
      `INSERT INTO ad_accounts (id, workspace_id, connection_id, platform_account_id, mode, name, currency, timezone,
         status, connected_at)
       VALUES (?, 'ws_1', 'conn_1', ?, ?, ?, 'USD', ?, 'active', ?)`,
      [id, platformId, mode, name, timezone, AT],
    );
  await sql.run(
    `UPDATE ad_accounts SET connection_status = 'disconnected' WHERE id = 'act_Cccccccccccccccc'`,
  );
}

const ALPHA = 'act_Aaaaaaaaaaaaaaaa';
const BRAVO = 'act_Bbbbbbbbbbbbbbbb';

const campaign = (id: string, status = 'ACTIVE') => ({
  id,
  name: `Campaign ${id}`,
  status,
  objective: 'OUTCOME_SALES',
  buying_type: 'AUCTION',
  special_ad_categories: [],
  created_time: '2026-01-01T00:00:00+0000',
});

const insight = (campaignId: string, date: string, spend: string, extra: Partial<PlatformInsightRow> = {}) =>
  ({
    campaign_id: campaignId,
    date_start: date,
    spend,
    impressions: '1000',
    clicks: '25',
    reach: '800',
    frequency: '1.25',
    ...extra,
  }) as PlatformInsightRow;

/** Campaigns c1, c2 (ad sets s1, s2, ads a1, a2) synced for Alpha; returns the writer and maps. */
async function structure(sql: Sql) {
  const writer = new SyncWriter(sql, ALPHA, 'USD');
  await writer.campaigns([campaign('c1'), campaign('c2')], AT);
  let maps = await loadObjectMaps(sql, ALPHA);
  const adSet = (id: string, campaignId: string) => ({
    id,
    campaign_id: campaignId,
    name: `Set ${id}`,
    status: 'ACTIVE',
    optimization_goal: 'OFFSITE_CONVERSIONS',
    promoted_object: { custom_event_type: 'PURCHASE' },
    learning_stage_info: { status: 'LEARNING', conversions: 3 },
    created_time: '2026-01-01T00:00:00+0000',
  });
  const orphans = await writer.adSets(
    [adSet('s1', 'c1'), adSet('s2', 'c2'), adSet('s9', 'gone')],
    maps,
    AT,
    '2026-03-15',
  );
  expect(orphans).toBe(1);
  maps = await loadObjectMaps(sql, ALPHA);
  const ad = (id: string, adSetId: string, campaignId: string) => ({
    id,
    adset_id: adSetId,
    campaign_id: campaignId,
    name: `Ad ${id}`,
    status: 'ACTIVE',
    created_time: '2026-01-01T00:00:00+0000',
  });
  expect(await writer.ads([ad('a1', 's1', 'c1'), ad('a2', 's2', 'c2')], maps, AT)).toBe(0);
  maps = await loadObjectMaps(sql, ALPHA);
  return { writer, maps };
}

describe.each(ENGINES)('the sync writer on %s', (engine) => {
  it('upserts objects in place and links children through the object maps', async () => {
    const { sql, close } = await engines.open(engine);
    await seed(sql);
    const { writer, maps } = await structure(sql);
    expect([...maps.campaigns.keys()].sort()).toEqual(['c1', 'c2']);
    const c1 = maps.campaigns.get('c1')!.id;
    expect(maps.adSets.get('s1')).toMatchObject({ campaignId: c1, result: { type: 'PURCHASE' } });
    expect(maps.ads.get('a1')).toMatchObject({ campaignId: c1, adSetId: maps.adSets.get('s1')!.id });
    expect(maps.campaignResults.get('c1')).toMatchObject({ type: 'PURCHASE' });
    // A re-read keeps the service IDs; the campaign count follows the table.
    await writer.campaigns([{ ...campaign('c1'), name: 'Renamed' }], AT);
    expect((await loadObjectMaps(sql, ALPHA)).campaigns.get('c1')!.id).toBe(c1);
    expect(await sql.get(`SELECT name FROM campaigns WHERE id = ?`, [c1])).toEqual({ name: 'Renamed' });
    expect(
      await sql.all(`SELECT status, conversions FROM learning_stage_snapshots ORDER BY ad_set_id`),
    ).toEqual([
      { status: 'LEARNING', conversions: 3 },
      { status: 'LEARNING', conversions: 3 },
    ]);
    // Statuses: an archived campaign archives its ad sets; one no longer listed is marked deleted.
    const seen = await writer.campaignStatuses([
      { id: 'c2', status: 'ARCHIVED', effective_status: 'ARCHIVED' },
    ]);
    await writer.markMissing('campaigns', maps.campaigns.keys(), seen);
    expect(
      await sql.all(`SELECT platform_campaign_id AS id, effective_status FROM campaigns ORDER BY 1`),
    ).toEqual([
      { id: 'c1', effective_status: 'DELETED' },
      { id: 'c2', effective_status: 'ARCHIVED' },
    ]);
    expect(await sql.get(`SELECT effective_status FROM ad_sets WHERE platform_ad_set_id = 's2'`)).toEqual({
      effective_status: 'ARCHIVED',
    });
    expect(await writer.hasUnresolvedResults()).toBe(false);
    expect(await writer.hasCustomConversions()).toBe(false);
    await close();
  });

  it('counts an insight row once when inserted or changed, and nothing for an identical re-read', async () => {
    const { sql, close } = await engines.open(engine);
    await seed(sql);
    const { maps } = await structure(sql);
    const c1 = maps.campaigns.get('c1')!.id;
    const c2 = maps.campaigns.get('c2')!.id;
    const page = [
      insight('c1', '2026-03-14', '10.00'),
      insight('c1', '2026-03-15', '20.00'),
      insight('c2', '2026-03-15', '5.50'),
      insight('unknown', '2026-03-15', '1.00'),
    ];
    const first = new SyncWriter(sql, ALPHA, 'USD');
    expect(await first.insights('campaign', page, maps)).toBe(1);
    expect(first.rowsWritten).toBe(3);
    expect([...first.changedCampaigns].sort()).toEqual([c1, c2].sort());

    const again = new SyncWriter(sql, ALPHA, 'USD');
    await again.insights('campaign', page, maps);
    expect(again.rowsWritten).toBe(0);
    expect(again.changedCampaigns.size).toBe(0);

    const changed = new SyncWriter(sql, ALPHA, 'USD');
    await changed.insights('campaign', [...page.slice(0, 2), insight('c2', '2026-03-15', '6.00')], maps);
    expect(changed.rowsWritten).toBe(1);
    expect([...changed.changedCampaigns]).toEqual([c2]);
    expect(
      await sql.all(
        `SELECT date, spend_micros, frequency FROM insights_campaign_daily ORDER BY campaign_id = ?, date`,
        [c2],
      ),
    ).toEqual([
      { date: '2026-03-14', spend_micros: 10_000_000, frequency: 1.25 },
      { date: '2026-03-15', spend_micros: 20_000_000, frequency: 1.25 },
      { date: '2026-03-15', spend_micros: 6_000_000, frequency: 1.25 },
    ]);

    // Ad-set days before the recent window that changed are tracked for the ad re-read.
    const adSets = new SyncWriter(sql, ALPHA, 'USD');
    const row = (date: string, spend: string) => insight('c1', date, spend, { adset_id: 's1' });
    await adSets.insights('adset', [row('2026-03-01', '1.00'), row('2026-03-14', '2.00')], maps);
    adSets.adSetChanges = { before: '2026-03-13', ids: new Set(), from: null, until: null };
    await adSets.insights('adset', [row('2026-03-01', '1.00'), row('2026-03-14', '3.00')], maps);
    expect(adSets.adSetChanges.ids.size).toBe(0);
    await adSets.insights('adset', [row('2026-03-01', '1.50'), row('2026-03-02', '1.00')], maps);
    expect(adSets.adSetChanges).toEqual({
      before: '2026-03-13',
      ids: new Set(['s1']),
      from: '2026-03-01',
      until: '2026-03-02',
    });
    expect(adSets.rowsWritten).toBe(2 + 1 + 2);
    await close();
  });

  it('writes a page of any length once per key, with its last values, and keeps the account rollup equal to its days', async () => {
    const { sql, close } = await engines.open(engine);
    await seed(sql);
    const { maps } = await structure(sql);
    const c1 = maps.campaigns.get('c1')!.id;
    // 1,200 days (more than one PostgreSQL statement's worth), the last one sent twice.
    const start = Date.parse('2023-01-01T00:00:00Z');
    const dates = Array.from({ length: 1200 }, (_, i) =>
      new Date(start + i * 86_400_000).toISOString().slice(0, 10),
    );
    const page = dates.map((date, i) => insight('c1', date, `${(i % 50) + 1}.00`));
    const lastDate = dates.at(-1)!;
    page.push(insight('c1', lastDate, '99.00'));
    page.push(insight('c2', lastDate, '7.00'));
    const writer = new SyncWriter(sql, ALPHA, 'USD');
    await writer.insights('campaign', page, maps);
    expect(writer.rowsWritten).toBe(1201);
    expect(
      await sql.get(`SELECT spend_micros FROM insights_campaign_daily WHERE campaign_id = ? AND date = ?`, [
        c1,
        lastDate,
      ]),
    ).toEqual({ spend_micros: 99_000_000 });
    const totals = `SELECT (SELECT sum(spend_micros) FROM insights_campaign_daily) AS days,
      (SELECT sum(spend_micros) FROM insights_account_daily) AS rollup,
      (SELECT count(*) FROM insights_account_daily) AS "rollupDays"`;
    const before = await sql.get<{ days: number; rollup: number; rollupDays: number }>(totals);
    expect(before?.rollup).toBe(before?.days);
    expect(before?.rollupDays).toBe(1200);

    // A re-read with one day changed writes that day only, and the rollup follows it.
    const again = new SyncWriter(sql, ALPHA, 'USD');
    await again.insights(
      'campaign',
      [...page.slice(0, 1200), insight('c1', lastDate, '99.00'), insight('c2', lastDate, '8.00')],
      maps,
    );
    expect(again.rowsWritten).toBe(1);
    expect([...again.changedCampaigns]).toEqual([maps.campaigns.get('c2')!.id]);
    const after = await sql.get<{ days: number; rollup: number }>(totals);
    expect(after?.days).toBe((before?.days ?? 0) + 1_000_000);
    expect(after?.rollup).toBe(after?.days);
    await close();
  });
});

describe.each(ENGINES)('sync runs on %s', (engine) => {
  it('records one running run per account, its progress and outcome, and finds the latest', async () => {
    const { sql, close } = await engines.open(engine);
    await seed(sql);
    const first = await beginRun(sql, ALPHA, 'full', '2026-03-15T10:00:00.000Z');
    await expect(beginRun(sql, ALPHA, 'full', '2026-03-15T10:00:01.000Z')).rejects.toMatchObject({
      type: 'sync_in_progress',
    });
    await recordProgress(sql, first, 'insights:ad', 60);
    expect(await runningRun(sql, ALPHA)).toMatchObject({ id: first, phase: 'insights:ad', percent: 60 });
    expect(await runningSyncStartedAt(sql, ALPHA)).toBe('2026-03-15T10:00:00.000Z');
    await finishRun(sql, first, { status: 'completed', stats: { campaigns: 2 } }, '2026-03-15T10:05:00.000Z');
    expect(await lastCompletedRun(sql, ALPHA)).toMatchObject({ id: first, phase: 'done', percent: 100 });
    expect(await runningRun(sql, ALPHA)).toBeUndefined();

    // Started at the same instant (a pinned clock): the running one is the latest, then the last to end.
    const second = await beginRun(sql, ALPHA, 'incremental', '2026-03-15T10:00:00.000Z');
    expect((await latestRun(sql, ALPHA))?.id).toBe(second);
    const resumeAfter = '2026-03-15T12:10:00.000Z';
    await finishRun(
      sql,
      second,
      {
        status: 'interrupted',
        stats: {},
        error: { type: 'rate_limited', message: 'paused', resumeAfter },
      },
      '2026-03-15T10:06:00.000Z',
    );
    expect((await latestRun(sql, ALPHA))?.id).toBe(second);
    expect(await pausedRuns(sql)).toEqual([{ accountId: ALPHA, resumeAfter }]);
    expect((await lastCompletedRun(sql, ALPHA))?.id).toBe(first);

    // A run whose process is unknown is interrupted by the next start.
    await sql.run(
      `INSERT INTO sync_runs (id, account_id, kind, status, phase, percent, pid, started_at)
       VALUES ('sync_Deaddeaddeaddead', ?, 'full', 'running', 'queued', 0, NULL, ?)`,
      [BRAVO, AT],
    );
    expect(await reapStaleRuns(sql, AT)).toEqual([BRAVO]);
    expect(await runningRun(sql, BRAVO)).toBeUndefined();
    await close();
  });
});

describe.each(ENGINES)('the newest run pointer on %s', (engine) => {
  it('points at the latest started run whoever writes runs and in whatever order', async () => {
    const { sql, close } = await engines.open(engine);
    await seed(sql);
    const insert = (id: string, status: string, startedAt: string, error: string | null = null) =>
      sql.run(
        `INSERT INTO sync_runs (id, account_id, kind, status, error, started_at, finished_at)
         VALUES (?, ?, 'incremental', ?, ?, ?, ?)`,
        [id, ALPHA, status, error, startedAt, status === 'running' ? null : startedAt],
      );
    const pointer = async () =>
      (
        await sql.get<{ id: string | null }>(`SELECT latest_run_id AS id FROM ad_accounts WHERE id = ?`, [
          ALPHA,
        ])
      )?.id;
    expect(await pointer()).toBeNull();
    // Recorded out of order (a copy, a command-line process): an older start never takes the pointer.
    await insert(
      'sync_b',
      'failed',
      '2026-03-15T09:00:00.000Z',
      '{"type":"platform_error","message":"down"}',
    );
    await insert('sync_a', 'completed', '2026-03-15T08:00:00.000Z');
    expect(await pointer()).toBe('sync_b');
    expect((await latestRun(sql, ALPHA))?.id).toBe('sync_b');
    const ctx = {
      workspaceId: 'ws_1',
      plan: 'agency' as const,
      userId: null,
      keyId: null,
      mode: 'all' as const,
    };
    const line = async () =>
      (await readAccounts(sql, ctx, { id: ALPHA, page: 1, pageSize: 1 }, NOW, () => false)).accounts[0]?.sync;
    expect((await line())?.lastError).toEqual({ type: 'platform_error', message: 'down' });
    // Started at the same instant (a pinned clock): the last recorded.
    await insert('sync_c', 'completed', '2026-03-15T09:00:00.000Z');
    expect(await pointer()).toBe('sync_c');
    expect((await line())?.lastError).toBeNull();
    // Another account's runs leave this one's pointer alone.
    await sql.run(
      `INSERT INTO sync_runs (id, account_id, kind, status, started_at) VALUES ('sync_x', ?, 'full', 'running', ?)`,
      [BRAVO, '2026-03-16T00:00:00.000Z'],
    );
    expect(await pointer()).toBe('sync_c');
    await close();
  });
});

describe.each(ENGINES)('accounts on %s', (engine) => {
  it('lists accounts with counts, the 30-day spend in their own time zone and the latest run', async () => {
    const { sql, close } = await engines.open(engine);
    await seed(sql);
    const { maps } = await structure(sql);
    const writer = new SyncWriter(sql, ALPHA, 'USD');
    // 2026-02-14 is the first day of the 30 ending 2026-03-15 (UTC); 2026-02-13 is outside.
    await writer.insights(
      'campaign',
      [
        insight('c1', '2026-02-13', '100.00'),
        insight('c1', '2026-02-14', '10.00'),
        insight('c1', '2026-03-15', '20.00'),
        insight('c2', '2026-03-15', '2.25'),
      ],
      maps,
    );
    // Bravo (Los Angeles, 05:00 there): its today is 2026-03-15 too; its spend is its own.
    await sql.run(
      `INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective,
         buying_type, created_time, updated_time, last_synced_at)
       VALUES ('camp_Bravobravobravo1', ?, 'b1', 'B', 'PAUSED', 'PAUSED', 'OUTCOME_SALES', 'AUCTION', ?, ?, ?)`,
      [BRAVO, AT, AT, AT],
    );
    await new SyncWriter(sql, BRAVO, 'USD').insights(
      'campaign',
      [insight('b1', '2026-03-15', '7.00')],
      await loadObjectMaps(sql, BRAVO),
    );
    const run = await beginRun(sql, BRAVO, 'full', AT);
    await recordProgress(sql, run, 'insights:ad', 40);

    const { accounts: views } = await readAccounts(sql, ctx, { page: 1, pageSize: -1 }, NOW, () => false);
    expect(views.map((v) => [v.name, v.campaignCount, v.activeCampaignCount, v.totalSpendLast30d])).toEqual([
      ['Alpha', 2, 2, 32.25],
      ['Bravo', 1, 0, 7],
      ['Charlie', 0, 0, 0],
    ]);
    expect(views[1]!.sync).toMatchObject({ running: true, percent: 40, phase: 'insights:ad' });
    expect(views[0]!.sync).toMatchObject({ running: false, phase: 'idle' });
    expect(await countAccounts(sql, ctx, { page: 1, pageSize: 1 })).toBe(3);
    expect(await countAccounts(sql, ctx, { connectionStatus: 'active', page: 1, pageSize: 1 })).toBe(2);
    const { accounts: page2 } = await readAccounts(sql, ctx, { page: 2, pageSize: 1 }, NOW, () => false);
    expect(page2.map((v) => v.name)).toEqual(['Bravo']);
    const { accounts: byId } = await readAccounts(
      sql,
      { ...ctx, mode: 'live' },
      { id: BRAVO, page: 1, pageSize: 1 },
      NOW,
      () => false,
    );
    expect(byId.map((v) => v.id)).toEqual([BRAVO]);
    expect(
      (
        await readAccounts(
          sql,
          { ...ctx, mode: 'test' },
          { id: BRAVO, page: 1, pageSize: 1 },
          NOW,
          () => false,
        )
      ).accounts,
    ).toEqual([]);
    await close();
  });

  it('reads accounts by ID and platform ID, and expires a connection with its active accounts', async () => {
    const { sql, close } = await engines.open(engine);
    await seed(sql);
    expect((await listAdAccounts(sql, 'ws_1')).map((a) => a.platformAccountId)).toEqual([
      'act_1',
      'act_2',
      'act_3',
    ]);
    expect(await getAdAccount(sql, ALPHA)).toMatchObject({ name: 'Alpha', permissions: [], mode: 'test' });
    expect((await resolveAdAccount(sql, 'ws_1', 'act_2')).id).toBe(BRAVO);
    await expect(resolveAdAccount(sql, 'ws_1', 'act_9')).rejects.toMatchObject({ type: 'not_found' });
    expect(await accountIdByPlatformId(sql, 'ws_1', 'act_1')).toBe(ALPHA);
    expect([...(await connectedDemoAccountIds(sql, 'ws_1'))].sort()).toEqual(['act_1', 'act_3']);
    expect([...(await activePlatformAccountIds(sql, 'ws_1'))].sort()).toEqual(['act_1', 'act_2']);
    const expired = await expireConnection(sql, 'conn_1', 'revoked', AT);
    expect(expired.map((a) => a.id).sort()).toEqual([ALPHA, BRAVO]);
    expect(await sql.get(`SELECT status, status_reason FROM platform_connections`)).toEqual({
      status: 'token_expired',
      status_reason: 'revoked',
    });
    expect((await getAdAccount(sql, 'act_Cccccccccccccccc'))?.connectionStatus).toBe('disconnected');
    await close();
  });

  it("stores a token's expiry and announces it once a day while it is near", async () => {
    const { sql, close } = await engines.open(engine);
    await seed(sql);
    const emitted: unknown[] = [];
    const core = {
      sql,
      events: { emit: (_: string, payload: unknown) => emitted.push(payload) },
    } as unknown as Core;
    await recordTokenInfo(
      sql,
      'conn_1',
      { type: 'USER', expiresAt: '2026-03-18T00:00:00.000Z', dataAccessExpiresAt: null },
      NOW,
    );
    expect(
      await sql.get(`SELECT token_type, token_expires_at, token_checked_at FROM platform_connections`),
    ).toEqual({ token_type: 'USER', token_expires_at: '2026-03-18T00:00:00.000Z', token_checked_at: AT });
    await announceIfExpiring(core, 'conn_1', NOW);
    await announceIfExpiring(core, 'conn_1', NOW);
    expect(emitted).toEqual([
      {
        workspaceId: 'ws_1',
        connectionId: 'conn_1',
        accountId: ALPHA,
        accountIds: [ALPHA, BRAVO],
        expiresAt: '2026-03-18T00:00:00.000Z',
        daysLeft: 3,
      },
    ]);
    await close();
  });
});
