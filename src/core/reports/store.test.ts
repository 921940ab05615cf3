// The reports store on both engines: creation and listing with every filter (the campaign filter reads
// the campaign_ids JSON column), the status transitions, due scheduled runs claimed once, schedules
// per workspace and mode, the default campaigns (GROUP BY over spend), client branding and deliveries.
import { afterAll, describe, expect, it } from 'vitest';
import { engineStores, ENGINES, seedWorkspaceRows } from '../../test-support/engines';
import type { RequestContext } from '../identity/access';
import type { Sql } from '../store/sql';
import type { ReportRow, ScheduleRow } from './rows';
import {
  accountName,
  clientBranding,
  deleteClientBranding,
  deliveriesOf,
  dueDeliveries,
  insertDeliveries,
  ReportStore,
  saveClientBranding,
  saveDeliveryOutcome,
  workspacePlan,
  type DeliveryRow,
} from './store';

const engines = engineStores();
afterAll(() => engines.stop(), 60_000);

const AT = '2026-04-01T00:00:00.000Z';

async function seedAccount(sql: Sql, id: string, workspaceId: string, mode: 'test' | 'live'): Promise<void> {
  await sql.run(
    `INSERT INTO platform_connections (id, workspace_id, base_url, api_version, mode, token_encrypted, created_at, updated_at)
     VALUES (?, ?, 'http://x', 'v25.0', ?, ?, ?, ?)`,
    [`conn_${id}`, workspaceId, mode, Buffer.from('t'), AT, AT],
  );
  await sql.run(
    `INSERT INTO ad_accounts (id, workspace_id, connection_id, platform_account_id, mode, name, currency, timezone, status, connected_at)
     VALUES (?, ?, ?, ?, ?, ?, 'EUR', 'UTC', 'active', ?)`,
    [
      id,
      workspaceId,
      `conn_${id}`,
      `act_${id.length}${id.charCodeAt(id.length - 1)}`,
      mode,
      `Account ${id}`,
      AT,
    ],
  );
}

async function seedCampaign(sql: Sql, id: string, accountId: string, name: string): Promise<void> {
  await sql.run(
    `INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective, buying_type,
       created_time, updated_time)
     VALUES (?, ?, ?, ?, 'ACTIVE', 'ACTIVE', 'OUTCOME_SALES', 'AUCTION', ?, ?)`,
    [id, accountId, `9${id.length}${name.length}${id.charCodeAt(id.length - 1)}`, name, AT, AT],
  );
}

const report = (id: string, over: Partial<ReportRow>): ReportRow => ({
  id,
  workspace_id: 'ws_a',
  account_id: 'acc_live',
  schedule_id: null,
  title: id,
  campaign_ids: '[]',
  format: 'pdf',
  status: 'generating',
  date_from: '2026-03-01',
  date_to: '2026-03-31',
  white_label: null,
  summary: null,
  file_path: null,
  error: null,
  due_at: null,
  created_at: AT,
  completed_at: null,
  expires_at: null,
  ...over,
});

const ctx = (mode: RequestContext['mode'], workspaceId = 'ws_a'): RequestContext => ({
  workspaceId,
  plan: 'agency',
  userId: null,
  keyId: null,
  mode,
});

const page = { page: 1, pageSize: 20 };

async function world(sql: Sql) {
  await seedWorkspaceRows(sql, 'ws_a');
  await seedWorkspaceRows(sql, 'ws_b');
  await seedAccount(sql, 'acc_live', 'ws_a', 'live');
  await seedAccount(sql, 'acc_test', 'ws_a', 'test');
  await seedAccount(sql, 'acc_other', 'ws_b', 'live');
  await seedCampaign(sql, 'camp_a', 'acc_live', 'Zulu');
  await seedCampaign(sql, 'camp_b', 'acc_live', 'Alpha');
  await seedCampaign(sql, 'camp_c', 'acc_live', 'Mike');
  return new ReportStore(sql);
}

describe.each(ENGINES)('the reports store on %s', (engine) => {
  it('creates and lists reports with every filter, in the workspace and mode only', async () => {
    const { sql, close } = await engines.open(engine);
    const store = await world(sql);
    await store.insert(
      report('rpt_1', { campaign_ids: '["camp_a","camp_b"]', created_at: '2026-04-01T10:00:00.000Z' }),
    );
    await store.insert(
      report('rpt_2', {
        campaign_ids: '["camp_b"]',
        format: 'markdown',
        created_at: '2026-04-02T10:00:00.000Z',
      }),
    );
    await store.insert(
      report('rpt_3', {
        campaign_ids: '["camp_a"]',
        status: 'completed',
        created_at: '2026-04-03T10:00:00.000Z',
      }),
    );
    await store.insert(report('rpt_t', { account_id: 'acc_test', created_at: '2026-04-02T11:00:00.000Z' }));
    await store.insert(report('rpt_o', { workspace_id: 'ws_b', account_id: 'acc_other' }));
    const all = { accountIds: ['acc_live', 'acc_test'], ...page };
    const ids = async (mode: RequestContext['mode'], f: object = {}) =>
      (await store.list(ctx(mode), { ...all, ...f })).rows.map((r) => r.id);

    expect(await ids('all')).toEqual(['rpt_3', 'rpt_t', 'rpt_2', 'rpt_1']);
    expect(await ids('live')).toEqual(['rpt_3', 'rpt_2', 'rpt_1']);
    expect(await ids('all', { campaignId: 'camp_a' })).toEqual(['rpt_3', 'rpt_1']);
    expect(await ids('all', { campaignId: 'camp_c' })).toEqual([]);
    expect(await ids('all', { format: 'markdown' })).toEqual(['rpt_2']);
    expect(await ids('all', { status: 'completed' })).toEqual(['rpt_3']);
    expect(await ids('all', { accountId: 'acc_test' })).toEqual(['rpt_t']);
    expect(await ids('all', { from: '2026-04-02', to: '2026-04-02' })).toEqual(['rpt_t', 'rpt_2']);
    expect(await ids('all', { accountIds: ['acc_live'] })).toEqual(['rpt_3', 'rpt_2', 'rpt_1']);
    const second = await store.list(ctx('all'), { ...all, page: 2, pageSize: 3 });
    expect(second).toMatchObject({ total: 4, rows: [{ id: 'rpt_1', campaign_ids: '["camp_a","camp_b"]' }] });
    expect((await store.list(ctx('all', 'ws_b'), all)).total).toBe(0);

    expect((await store.visible(ctx('live'), 'rpt_1'))?.id).toBe('rpt_1');
    expect(await store.visible(ctx('test'), 'rpt_1')).toBeUndefined();
    expect(await store.visible(ctx('all', 'ws_b'), 'rpt_1')).toBeUndefined();
    expect(await store.byId('rpt_1')).toEqual(
      report('rpt_1', { campaign_ids: '["camp_a","camp_b"]', created_at: '2026-04-01T10:00:00.000Z' }),
    );
    expect(await store.account(ctx('live'), 'acc_live')).toEqual({ id: 'acc_live', currency: 'EUR' });
    await expect(store.account(ctx('test'), 'acc_live')).rejects.toMatchObject({ type: 'not_found' });
    await close();
  });

  it('moves a report through its statuses and resolves campaigns by either ID', async () => {
    const { sql, close } = await engines.open(engine);
    const store = await world(sql);
    await store.insert(report('rpt_1', {}));
    await store.insert(report('rpt_2', { created_at: '2026-04-01T00:00:01.000Z' }));
    expect(await store.idsWithStatus('generating')).toEqual(['rpt_1', 'rpt_2']);
    await store.setCampaigns('rpt_1', ['camp_b']);
    await store.complete('rpt_1', {
      summary: '{"totalSpend":1}',
      filePath: 'reports/rpt_1.pdf',
      completedAt: '2026-04-01T01:00:00.000Z',
      expiresAt: '2026-04-08T01:00:00.000Z',
    });
    await store.fail('rpt_2', '{"type":"api_error"}', '2026-04-01T02:00:00.000Z');
    expect(await store.byId('rpt_1')).toMatchObject({
      status: 'completed',
      campaign_ids: '["camp_b"]',
      file_path: 'reports/rpt_1.pdf',
      error: null,
    });
    expect(await store.byId('rpt_2')).toMatchObject({ status: 'failed', error: '{"type":"api_error"}' });
    expect(await store.idsWithStatus('generating')).toEqual([]);

    const platformId = (await sql.get<{ p: string }>(
      `SELECT platform_campaign_id AS p FROM campaigns WHERE id = 'camp_c'`,
    ))!.p;
    expect(await store.resolveCampaigns('acc_live', ['camp_a', platformId, 'camp_a'])).toEqual([
      'camp_a',
      'camp_c',
    ]);
    await expect(store.resolveCampaigns('acc_live', ['camp_a', 'camp_zzz'])).rejects.toMatchObject({
      type: 'not_found',
    });
    await close();
  });

  it('picks default campaigns by spend in the window, else by name', async () => {
    const { sql, close } = await engines.open(engine);
    const store = await world(sql);
    expect(await store.defaultCampaigns('acc_live', '2026-03-01', '2026-03-31', 2)).toEqual([
      'camp_b',
      'camp_c',
    ]);
    const spend = async (campaign: string, date: string, micros: number) =>
      sql.run(
        `INSERT INTO insights_campaign_daily (campaign_id, date, account_id, spend_micros) VALUES (?, ?, 'acc_live', ?)`,
        [campaign, date, micros],
      );
    await spend('camp_a', '2026-03-02', 4_000_000);
    await spend('camp_a', '2026-03-03', 5_000_000);
    await spend('camp_c', '2026-03-02', 8_000_000);
    await spend('camp_b', '2026-03-02', 0);
    await spend('camp_b', '2026-04-02', 90_000_000); // outside the window
    expect(await store.defaultCampaigns('acc_live', '2026-03-01', '2026-03-31', 5)).toEqual([
      'camp_a',
      'camp_c',
    ]);
    expect(await store.defaultCampaigns('acc_live', '2026-03-01', '2026-03-31', 1)).toEqual(['camp_a']);
    await close();
  });

  it('keeps schedules, claims a due run once, and cancels with its pending run', async () => {
    const { sql, close } = await engines.open(engine);
    const store = await world(sql);
    const schedule = (id: string, accountId: string, createdAt: string): ScheduleRow => ({
      id,
      workspace_id: 'ws_a',
      account_id: accountId,
      cadence: 'weekly',
      request: '{}',
      next_run_at: '2026-04-06T06:00:00.000Z',
      created_at: createdAt,
      cancelled_at: null,
    });
    await store.insertSchedule(schedule('sched_2', 'acc_live', '2026-04-01T00:00:02.000Z'));
    await store.insertSchedule(schedule('sched_1', 'acc_test', '2026-04-01T00:00:01.000Z'));
    expect((await store.schedules(ctx('all'))).map((s) => s.id)).toEqual(['sched_1', 'sched_2']);
    expect((await store.schedules(ctx('live'))).map((s) => s.id)).toEqual(['sched_2']);
    await store.setNextRun('sched_2', '2026-04-13T06:00:00.000Z');
    expect(await store.schedule('sched_2')).toMatchObject({ next_run_at: '2026-04-13T06:00:00.000Z' });

    const pending = (id: string, dueAt: string) =>
      report(id, { schedule_id: 'sched_2', status: 'pending', due_at: dueAt });
    await store.insert(pending('rpt_late', '2026-04-13T06:00:00.000Z'));
    await store.insert(pending('rpt_due', '2026-04-06T06:00:00.000Z'));
    expect((await store.duePending('2026-04-07T00:00:00.000Z')).map((r) => r.id)).toEqual(['rpt_due']);
    const claims = await Promise.all([
      sql.transaction((tx) => store.on(tx).claimPending('rpt_due')),
      sql.transaction((tx) => store.on(tx).claimPending('rpt_due')),
    ]);
    expect(claims.sort()).toEqual([false, true]);
    expect(await store.duePending('2026-04-07T00:00:00.000Z')).toEqual([]);

    await store.cancelSchedule('sched_2', '2026-04-08T00:00:00.000Z');
    expect(await store.schedule('sched_2')).toMatchObject({ cancelled_at: '2026-04-08T00:00:00.000Z' });
    expect(await store.byId('rpt_late')).toBeUndefined();
    expect(await store.byId('rpt_due')).toMatchObject({ status: 'generating' });
    await close();
  });

  it('keeps client branding and a report’s deliveries (a target once), due ones in order', async () => {
    const { sql, close } = await engines.open(engine);
    const store = await world(sql);
    expect(await workspacePlan(sql, 'ws_a')).toBe('agency');
    expect(await accountName(sql, 'acc_live')).toBe('Account acc_live');
    const branding = {
      workspace_id: 'ws_a',
      account_id: 'acc_live',
      company_name: 'Acme',
      logo: null,
      primary_color: '#112233',
      footer_text: null,
      updated_at: AT,
    };
    await saveClientBranding(sql, branding);
    await saveClientBranding(sql, {
      ...branding,
      company_name: 'Acme Ltd',
      updated_at: '2026-04-02T00:00:00.000Z',
    });
    expect(await clientBranding(sql, 'ws_a', 'acc_live')).toEqual({
      ...branding,
      company_name: 'Acme Ltd',
      updated_at: '2026-04-02T00:00:00.000Z',
    });
    await deleteClientBranding(sql, 'ws_a', 'acc_live');
    expect(await clientBranding(sql, 'ws_a', 'acc_live')).toBeUndefined();

    await store.insert(report('rpt_1', { status: 'completed' }));
    await store.insert(report('rpt_2', { status: 'completed' }));
    const delivery = (
      id: string,
      reportId: string,
      channel: 'folder' | 'email',
      target: string,
    ): DeliveryRow => ({
      id,
      report_id: reportId,
      channel,
      target,
      status: 'pending',
      attempts: 0,
      next_attempt_at: AT,
      last_error: null,
      delivered_at: null,
      path: null,
      created_at: AT,
    });
    await insertDeliveries(sql, [
      delivery('dlv_3', 'rpt_1', 'email', 'b@x.test'),
      delivery('dlv_1', 'rpt_1', 'folder', '/tmp/out'),
      delivery('dlv_2', 'rpt_1', 'email', 'a@x.test'),
    ]);
    // The same target again (a retried completion) is kept as it is.
    await insertDeliveries(sql, [delivery('dlv_9', 'rpt_1', 'email', 'a@x.test')]);
    await insertDeliveries(sql, [delivery('dlv_4', 'rpt_2', 'folder', '/tmp/out')]);
    expect((await deliveriesOf(sql, ['rpt_1'])).map((d) => d.id)).toEqual(['dlv_2', 'dlv_3', 'dlv_1']);
    expect(await deliveriesOf(sql, [])).toEqual([]);
    await saveDeliveryOutcome(sql, 'dlv_2', {
      status: 'delivered',
      attempts: 1,
      next_attempt_at: AT,
      last_error: null,
      delivered_at: '2026-04-01T00:01:00.000Z',
      path: null,
    });
    await saveDeliveryOutcome(sql, 'dlv_3', {
      status: 'pending',
      attempts: 1,
      next_attempt_at: '2026-04-01T00:02:00.000Z',
      last_error: 'refused',
      delivered_at: null,
      path: null,
    });
    expect((await dueDeliveries(sql, '2026-04-01T00:01:00.000Z')).map((d) => d.id)).toEqual([
      'dlv_1',
      'dlv_4',
    ]);
    expect((await dueDeliveries(sql, '2026-04-01T00:05:00.000Z')).map((d) => d.id)).toEqual([
      'dlv_1',
      'dlv_4',
      'dlv_3',
    ]);
    expect((await deliveriesOf(sql, ['rpt_1', 'rpt_2'])).find((d) => d.id === 'dlv_3')).toMatchObject({
      attempts: 1,
      last_error: 'refused',
    });
    await close();
  });
});
