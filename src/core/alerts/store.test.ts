// The alerts and watch stores on both engines: destinations and the deliveries outbox (one per
// destination and key, leases, outcomes, order by real columns), digests, the facts account checks
// read (sums of budgets), the digest's reads over a JSON list of accounts, and the watcher's sync
// schedules, due slots and unjudged runs.
import { afterAll, describe, expect, it } from 'vitest';
import { engineStores, ENGINES, seedWorkspaceRows } from '../../test-support/engines';
import type { Sql } from '../store/sql';
import {
  accountZone,
  markJudged,
  saveSchedule,
  scheduleOf,
  unjudgedRuns,
  watchedAccounts,
  type ScheduleRow,
} from '../watch/store';
import {
  accountName,
  allDigests,
  claimDelivery,
  dailyBudgetMicros,
  deleteDestination,
  deleteDigest,
  deliveriesOf,
  destinationRow,
  destinationsOf,
  digestOf,
  dueDeliveries,
  enqueueDelivery,
  insertDestination,
  issuesChangedSince,
  lastDeliveryOf,
  lastSpendDay,
  saveDeliveryOutcome,
  saveDigest,
  spendCapOf,
  syncsFailedSince,
  userEmail,
  type DeliveryRow,
  type DestinationRow,
} from './store';

const engines = engineStores();
afterAll(() => engines.stop(), 60_000);

const AT = '2026-03-15T10:00:00.000Z';

async function seedAccount(
  sql: Sql,
  id: string,
  over: { workspaceId?: string; connection?: string; cap?: [number, number] } = {},
): Promise<void> {
  const workspaceId = over.workspaceId ?? 'ws_a';
  await sql.run(
    `INSERT INTO platform_connections (id, workspace_id, base_url, api_version, mode, token_encrypted, created_at, updated_at)
     VALUES (?, ?, 'http://x', 'v25.0', 'live', ?, ?, ?)`,
    [`conn_${id}`, workspaceId, Buffer.from('t'), AT, AT],
  );
  await sql.run(
    `INSERT INTO ad_accounts (id, workspace_id, connection_id, platform_account_id, mode, name, currency, timezone,
       status, connection_status, connected_at, spend_cap_micros, amount_spent_micros)
     VALUES (?, ?, ?, ?, 'live', ?, 'EUR', 'Europe/Paris', 'active', ?, ?, ?, ?)`,
    [
      id,
      workspaceId,
      `conn_${id}`,
      `act_${id.charCodeAt(id.length - 1)}`,
      `Account ${id}`,
      over.connection ?? 'active',
      AT,
      over.cap?.[0] ?? null,
      over.cap?.[1] ?? null,
    ],
  );
}

async function world(sql: Sql): Promise<void> {
  await seedWorkspaceRows(sql, 'ws_a', [{ id: 'user_1', email: 'one@agency.test', role: 'owner' }]);
  await seedWorkspaceRows(sql, 'ws_b');
  await seedAccount(sql, 'acc_1', { cap: [100_000_000, 96_000_000] });
  await seedAccount(sql, 'acc_2');
  await seedAccount(sql, 'acc_3', { workspaceId: 'ws_b', connection: 'token_expired' });
}

const destination = (id: string, createdAt: string, workspaceId = 'ws_a'): DestinationRow => ({
  id,
  workspace_id: workspaceId,
  account_id: null,
  kind: 'webhook',
  target: 'https://hooks.test/x',
  format: 'json',
  min_risk: 'HIGH',
  types: '["issue.opened"]',
  secret_sealed: Buffer.from([0, 1, 2, 250]),
  created_at: createdAt,
});

const delivery = (
  id: string,
  key: string,
  createdAt: string,
  over: Partial<DeliveryRow> = {},
): DeliveryRow => ({
  id,
  destination_id: 'dest_1',
  dedupe_key: key,
  type: 'issue.opened',
  payload: '{}',
  status: 'pending',
  attempts: 0,
  created_at: createdAt,
  next_attempt_at: createdAt,
  expires_at: '2026-03-16T10:00:00.000Z',
  last_status: null,
  last_error: null,
  delivered_at: null,
  ...over,
});

describe.each(ENGINES)('the alerts store on %s', (engine) => {
  it('keeps destinations and an outbox with one delivery per destination and key', async () => {
    const { sql, close } = await engines.open(engine);
    await world(sql);
    await insertDestination(sql, destination('dest_2', '2026-03-15T09:00:00.000Z'));
    await insertDestination(sql, destination('dest_1', '2026-03-15T08:00:00.000Z'));
    await insertDestination(sql, destination('dest_b', AT, 'ws_b'));
    expect((await destinationsOf(sql, 'ws_a')).map((d) => d.id)).toEqual(['dest_1', 'dest_2']);
    const row = await destinationRow(sql, 'dest_1');
    expect(row).toEqual(destination('dest_1', '2026-03-15T08:00:00.000Z'));
    expect(Buffer.isBuffer(row?.secret_sealed)).toBe(true);

    expect(await enqueueDelivery(sql, delivery('dlv_b', 'issue:1:opened:1', AT))).toBe(true);
    expect(await enqueueDelivery(sql, delivery('dlv_a', 'issue:1:worsened:2', AT))).toBe(true);
    expect(await enqueueDelivery(sql, delivery('dlv_z', 'issue:1:opened:1', AT))).toBe(false);
    expect(await enqueueDelivery(sql, delivery('dlv_c', 'sync:1', '2026-03-15T09:59:00.000Z'))).toBe(true);
    expect(await enqueueDelivery(sql, delivery('dlv_d', 'sync:1', AT, { destination_id: 'dest_2' }))).toBe(
      true,
    );
    expect((await deliveriesOf(sql, 'dest_1')).map((d) => d.id)).toEqual(['dlv_c', 'dlv_a', 'dlv_b']);
    expect((await lastDeliveryOf(sql, 'dest_1'))?.id).toBe('dlv_b');
    expect(await lastDeliveryOf(sql, 'dest_b')).toBeUndefined();

    const due = await dueDeliveries(sql, AT);
    expect(due.map((d) => d.id)).toEqual(['dlv_c', 'dlv_a', 'dlv_b', 'dlv_d']);
    const first = due[0] as DeliveryRow;
    const leases = await Promise.all([
      claimDelivery(sql, first, '2026-03-15T10:05:00.000Z'),
      claimDelivery(sql, first, '2026-03-15T10:05:00.000Z'),
    ]);
    expect(leases.sort()).toEqual([false, true]);
    expect((await dueDeliveries(sql, AT)).map((d) => d.id)).toEqual(['dlv_a', 'dlv_b', 'dlv_d']);
    await saveDeliveryOutcome(sql, {
      id: 'dlv_a',
      status: 'delivered',
      attempts: 1,
      next_attempt_at: AT,
      last_status: 204,
      last_error: null,
      delivered_at: AT,
    });
    expect((await deliveriesOf(sql, 'dest_1')).find((d) => d.id === 'dlv_a')).toMatchObject({
      status: 'delivered',
      attempts: 1,
      last_status: 204,
    });

    await deleteDestination(sql, 'dest_1');
    expect(await destinationRow(sql, 'dest_1')).toBeUndefined();
    expect(await deliveriesOf(sql, 'dest_1')).toEqual([]);
    await close();
  });

  it('keeps each user’s digest and reads what changed over a JSON list of accounts', async () => {
    const { sql, close } = await engines.open(engine);
    await world(sql);
    const digest = {
      user_id: 'user_1',
      workspace_id: 'ws_a',
      hour: 8,
      timezone: 'Europe/Paris',
      last_day: null,
      last_sent_at: null,
    };
    await saveDigest(sql, digest);
    await saveDigest(sql, { ...digest, hour: 9, last_day: '2026-03-15', last_sent_at: AT });
    expect(await digestOf(sql, 'user_1')).toEqual({
      ...digest,
      hour: 9,
      last_day: '2026-03-15',
      last_sent_at: AT,
    });
    expect(await allDigests(sql)).toHaveLength(1);
    expect(await userEmail(sql, 'user_1')).toBe('one@agency.test');
    expect(await userEmail(sql, 'user_x')).toBeUndefined();

    await sql.run(
      `INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective,
         buying_type, created_time, updated_time)
       VALUES ('camp_1', 'acc_1', '111', 'Alpha', 'ACTIVE', 'ACTIVE', 'OUTCOME_SALES', 'AUCTION', ?, ?)`,
      [AT, AT],
    );
    const issue = (id: string, accountId: string, campaignId: string | null, updatedAt: string) =>
      sql.run(
        `INSERT INTO issues (id, workspace_id, account_id, campaign_id, type, entity_id, entity_name, state, severity,
           peak_severity, title, description, evidence, diagnostic_id, opened_at, updated_at, history)
         VALUES (?, 'ws_a', ?, ?, 'CPA_DEGRADATION', ?, 'E', 'open', 'HIGH', 'HIGH', ?, 'd', '{}', 'diag_1', ?, ?, '[]')`,
        [id, accountId, campaignId, id, `Issue ${id}`, updatedAt, updatedAt],
      );
    await issue('iss_2', 'acc_1', null, '2026-03-15T09:00:00.000Z');
    await issue('iss_1', 'acc_1', 'camp_1', '2026-03-15T08:00:00.000Z');
    await issue('iss_3', 'acc_2', null, '2026-03-15T09:30:00.000Z');
    await issue('iss_0', 'acc_1', null, '2026-03-14T08:00:00.000Z');
    const changed = await issuesChangedSince(sql, ['acc_1'], '2026-03-15T00:00:00.000Z');
    expect(changed.map((c) => [c.issue_id, c.account_name, c.campaign_name])).toEqual([
      ['iss_1', 'Account acc_1', 'Alpha'],
      ['iss_2', 'Account acc_1', null],
    ]);
    expect(await issuesChangedSince(sql, [], '2026-03-15T00:00:00.000Z')).toEqual([]);

    const run = (id: string, accountId: string, status: string, finishedAt: string, error: string | null) =>
      sql.run(
        `INSERT INTO sync_runs (id, account_id, kind, status, error, started_at, finished_at)
         VALUES (?, ?, 'incremental', ?, ?, ?, ?)`,
        [id, accountId, status, error, finishedAt, finishedAt],
      );
    await run('sync_2', 'acc_2', 'failed', '2026-03-15T09:00:00.000Z', 'Graph said no');
    await run('sync_1', 'acc_1', 'failed', '2026-03-15T08:00:00.000Z', null);
    await run('sync_3', 'acc_1', 'completed', '2026-03-15T08:30:00.000Z', null);
    await run('sync_0', 'acc_1', 'failed', '2026-03-14T08:00:00.000Z', 'old');
    expect(await syncsFailedSince(sql, ['acc_1', 'acc_2'], '2026-03-15T00:00:00.000Z')).toEqual([
      { account_name: 'Account acc_1', finished_at: '2026-03-15T08:00:00.000Z', error: null },
      { account_name: 'Account acc_2', finished_at: '2026-03-15T09:00:00.000Z', error: 'Graph said no' },
    ]);

    await deleteDigest(sql, 'user_1');
    expect(await digestOf(sql, 'user_1')).toBeUndefined();
    await close();
  });

  it('reads the facts account checks judge: name, spend cap, last day with spend, budgets in force', async () => {
    const { sql, close } = await engines.open(engine);
    await world(sql);
    expect(await accountName(sql, 'acc_1')).toEqual({
      id: 'acc_1',
      name: 'Account acc_1',
      workspace_id: 'ws_a',
      status: 'active',
      timezone: 'Europe/Paris',
    });
    expect(await spendCapOf(sql, 'acc_1')).toEqual({
      spend_cap_micros: 100_000_000,
      amount_spent_micros: 96_000_000,
    });
    expect(await spendCapOf(sql, 'acc_2')).toBeUndefined();

    const day = (date: string, spend: number, conversions: number) =>
      sql.run(
        `INSERT INTO insights_account_daily (account_id, date, spend_micros, conversions) VALUES ('acc_1', ?, ?, ?)`,
        [date, spend, conversions],
      );
    await day('2026-03-13', 50_000_000, 4);
    await day('2026-03-14', 0, 0);
    await day('2026-03-15', 9_000_000, 0);
    expect(await lastSpendDay(sql, 'acc_1', '2026-03-15')).toEqual({
      date: '2026-03-13',
      spend_micros: 50_000_000,
      conversions: 4,
    });
    expect(await lastSpendDay(sql, 'acc_2', '2026-03-15')).toBeUndefined();

    expect(await dailyBudgetMicros(sql, 'acc_1')).toBe(0);
    const campaign = (id: string, status: string, budget: number | null) =>
      sql.run(
        `INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective,
           buying_type, created_time, updated_time, daily_budget_micros)
         VALUES (?, 'acc_1', ?, ?, 'ACTIVE', ?, 'OUTCOME_SALES', 'AUCTION', ?, ?, ?)`,
        [id, `p_${id}`, id, status, AT, AT, budget],
      );
    const adSet = (id: string, campaignId: string, status: string, budget: number | null) =>
      sql.run(
        `INSERT INTO ad_sets (id, account_id, campaign_id, platform_ad_set_id, name, status, effective_status,
           created_time, updated_time, daily_budget_micros)
         VALUES (?, 'acc_1', ?, ?, ?, 'ACTIVE', ?, ?, ?, ?)`,
        [id, campaignId, `p_${id}`, id, status, AT, AT, budget],
      );
    await campaign('camp_cbo', 'ACTIVE', 30_000_000);
    await campaign('camp_abo', 'ACTIVE', null);
    await campaign('camp_off', 'PAUSED', 70_000_000);
    await adSet('set_1', 'camp_abo', 'ACTIVE', 5_000_000);
    await adSet('set_2', 'camp_abo', 'PAUSED', 6_000_000);
    await adSet('set_3', 'camp_cbo', 'ACTIVE', 7_000_000); // under a CBO campaign: its budget counts
    expect(await dailyBudgetMicros(sql, 'acc_1')).toBe(35_000_000);
    await close();
  });
});

describe.each(ENGINES)('the watch store on %s', (engine) => {
  it('keeps sync schedules of watched accounts, and marks unjudged runs judged', async () => {
    const { sql, close } = await engines.open(engine);
    await world(sql);
    const watched = await watchedAccounts(sql);
    expect(watched).toEqual([
      { id: 'acc_1', workspace_id: 'ws_a', timezone: 'Europe/Paris', schedule: null },
      { id: 'acc_2', workspace_id: 'ws_a', timezone: 'Europe/Paris', schedule: null },
    ]);
    const schedule: ScheduleRow = {
      account_id: 'acc_2',
      interval_minutes: null,
      next_incremental_at: '2026-03-15T10:30:00.000Z',
      next_full_at: '2026-03-16T02:00:00.000Z',
      failures: 0,
      backoff_until: null,
      last_reason: null,
    };
    await saveSchedule(sql, schedule);
    await saveSchedule(sql, {
      ...schedule,
      interval_minutes: 60,
      failures: 2,
      backoff_until: '2026-03-15T11:00:00.000Z',
      last_reason: 'platform_error',
    });
    const saved = {
      ...schedule,
      interval_minutes: 60,
      failures: 2,
      backoff_until: '2026-03-15T11:00:00.000Z',
      last_reason: 'platform_error',
    };
    expect(await scheduleOf(sql, 'acc_2')).toEqual(saved);
    expect(await scheduleOf(sql, 'acc_1')).toBeUndefined();
    expect((await watchedAccounts(sql))[1]).toEqual({
      id: 'acc_2',
      workspace_id: 'ws_a',
      timezone: 'Europe/Paris',
      schedule: saved,
    });
    // A due slot is the schedule's own comparison of ISO instants.
    const due = (await watchedAccounts(sql)).filter(
      (a) => a.schedule && a.schedule.next_incremental_at <= '2026-03-15T10:30:00.000Z',
    );
    expect(due.map((a) => a.id)).toEqual(['acc_2']);
    expect(await accountZone(sql, 'acc_3')).toEqual({ workspace_id: 'ws_b', timezone: 'Europe/Paris' });

    const run = (id: string, finishedAt: string, status = 'completed') =>
      sql.run(
        `INSERT INTO sync_runs (id, account_id, kind, status, stats, started_at, finished_at)
         VALUES (?, 'acc_1', 'incremental', ?, '{"changedCampaignIds":["camp_1"]}', ?, ?)`,
        [id, status, finishedAt, finishedAt],
      );
    await run('sync_b', '2026-03-15T09:00:00.000Z');
    await run('sync_a', '2026-03-15T09:30:00.000Z');
    await run('sync_c', '2026-03-15T08:00:00.000Z', 'failed');
    expect((await unjudgedRuns(sql)).map((r) => r.id)).toEqual(['sync_b', 'sync_a']);
    await markJudged(sql, ['sync_b'], AT);
    expect(await unjudgedRuns(sql)).toEqual([
      { id: 'sync_a', account_id: 'acc_1', stats: '{"changedCampaignIds":["camp_1"]}' },
    ]);
    await markJudged(sql, [], AT);
    await markJudged(sql, ['sync_a'], AT);
    expect(await unjudgedRuns(sql)).toEqual([]);
    await close();
  });
});
