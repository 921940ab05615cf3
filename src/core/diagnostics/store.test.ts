// The diagnostics stores on both engines: Andromeda profiles and feedback (sums per action kind), the
// history of a scope and the diagnostic before one, an issue's daily series, the stored diagnostics
// listed by accounts and the latest per campaign, and the snapshots, goals and peers a diagnosis
// loads (the same diagnosis from either engine).
import { afterAll, describe, expect, it } from 'vitest';
import { seedAccountRows } from '../../test-support/ad-rows';
import { engineStores, ENGINES, seedWorkspaceRows, type Engine } from '../../test-support/engines';
import { fixedClock } from '../clock';
import { localJobs, silentLogger, type Core } from '../core';
import { CoreEvents } from '../events';
import type { Sql } from '../store/sql';
import { feedbackGiven, getProfile, learnedFor, recordFeedback, setProfile } from './andromeda';
import { computeDiagnosis } from './compute';
import { completedDiagnostics, entityDays, previousDiagnosticId } from './history-store';
import { accountPeers, campaignsWithDelivery, loadCampaigns, loadMetaRecommendations } from './load';
import { DiagnosticsService } from './service';

const engines = engineStores();
afterAll(() => engines.stop(), 60_000);

const NOW = '2026-03-15T12:00:00.000Z';

async function world(sql: Sql): Promise<void> {
  await seedWorkspaceRows(sql, 'ws_a', [
    { id: 'usr_member', email: 'member@a.test' },
    { id: 'usr_owner', email: 'owner@a.test', role: 'owner' },
  ]);
  await seedWorkspaceRows(sql, 'ws_b');
  await seedAccountRows(sql, 'ws_a', { id: 'acc_1', name: 'Acme' }, [
    { id: 'cmp_1', name: 'Alpha', resultType: 'PURCHASE' },
    { id: 'cmp_2', name: 'Beta', resultType: 'LEAD' },
    { id: 'cmp_3', name: 'Gamma' },
  ]);
  await seedAccountRows(sql, 'ws_a', { id: 'acc_2', name: 'Bolt' }, [{ id: 'cmp_9', name: 'Other' }]);
}

interface DiagnosticSeed {
  id: string;
  accountId?: string;
  campaignId?: string | null;
  status?: string;
  createdAt?: string;
  completedAt?: string | null;
  riskLevel?: string | null;
  issues?: number;
  result?: string | null;
  workspaceId?: string;
}

async function diagnostic(sql: Sql, d: DiagnosticSeed): Promise<void> {
  await sql.run(
    `INSERT INTO diagnostics (id, workspace_id, account_id, campaign_id, status, date_from, date_to, risk_level,
       issues_detected, result, created_at, completed_at, trigger)
     VALUES (?, ?, ?, ?, ?, '2026-03-01', '2026-03-14', ?, ?, ?, ?, ?, 'manual')`,
    [
      d.id,
      d.workspaceId ?? 'ws_a',
      d.accountId ?? 'acc_1',
      d.campaignId === undefined ? 'cmp_1' : d.campaignId,
      d.status ?? 'completed',
      d.riskLevel ?? 'LOW',
      d.issues ?? 0,
      d.result ?? null,
      d.createdAt ?? '2026-03-14T00:00:00.000Z',
      d.completedAt === undefined ? (d.createdAt ?? '2026-03-14T00:00:00.000Z') : d.completedAt,
    ],
  );
}

async function days(sql: Sql): Promise<void> {
  await sql.run(
    `INSERT INTO ad_sets (id, account_id, campaign_id, platform_ad_set_id, name, status, effective_status,
       created_time, updated_time, targeting)
     VALUES ('as_1', 'acc_1', 'cmp_1', 'pas_1', 'US broad', 'ACTIVE', 'ACTIVE', ?, ?, '{}')`,
    [NOW, NOW],
  );
  await sql.run(
    `INSERT INTO ads (id, account_id, campaign_id, ad_set_id, platform_ad_id, name, status, effective_status,
       created_time, updated_time, issues_info)
     VALUES ('ad_1', 'acc_1', 'cmp_1', 'as_1', 'pad_1', 'Video', 'ACTIVE', 'ACTIVE', ?, ?, '[]')`,
    [NOW, NOW],
  );
  for (let day = 1; day <= 14; day++) {
    const date = `2026-03-${String(day).padStart(2, '0')}`;
    // Alpha: a day of spend, conversions and revenue; Beta: only from the 10th; Gamma: nothing spent.
    const rows: [string, number, number, number, number][] = [
      ['cmp_1', 9_007_199_254 + day, 1000 * day, 3, 25_500_000],
      ...(day >= 10 ? ([['cmp_2', 2_000_000, 500, 1, 0]] as [string, number, number, number, number][]) : []),
      ['cmp_3', 0, 0, 0, 0],
    ];
    for (const [campaignId, spend, impressions, conversions, revenue] of rows)
      await sql.run(
        `INSERT INTO insights_campaign_daily (campaign_id, date, account_id, spend_micros, impressions, clicks,
           conversions, revenue_micros, reach, frequency, link_clicks)
         VALUES (?, ?, 'acc_1', ?, ?, 10, ?, ?, 400, 1.25, 7)`,
        [campaignId, date, spend, impressions, conversions, revenue],
      );
    await sql.run(
      `INSERT INTO insights_ad_set_daily (ad_set_id, date, account_id, campaign_id, spend_micros, impressions,
         clicks, conversions, revenue_micros, reach, frequency, link_clicks)
       VALUES ('as_1', ?, 'acc_1', 'cmp_1', ?, ?, 10, 3, 25500000, 400, 1.25, 7)`,
      [date, 9_007_199_254 + day, 1000 * day],
    );
    await sql.run(
      `INSERT INTO insights_ad_daily (ad_id, date, account_id, campaign_id, ad_set_id, spend_micros, impressions,
         clicks, conversions, revenue_micros, reach, frequency, link_clicks)
       VALUES ('ad_1', ?, 'acc_1', 'cmp_1', 'as_1', ?, ?, 10, 3, 25500000, 400, 1.25, 7)`,
      [date, 9_007_199_254 + day, 1000 * day],
    );
  }
}

/** What the service's reads need of a core. */
const coreOn = (sql: Sql): Core =>
  ({
    sql,
    clock: fixedClock(NOW),
    events: new CoreEvents(),
    logger: silentLogger,
    jobs: localJobs,
  }) as unknown as Core;

/** Each engine's diagnosis of the same rows, to compare them. */
const diagnoses = new Map<Engine, string>();

describe.each(ENGINES)('the diagnostics stores on %s', (engine) => {
  it('keeps Andromeda profiles and sums feedback per action kind', async () => {
    const { sql, close } = await engines.open(engine);
    await world(sql);
    expect(await getProfile(sql, 'usr_member')).toEqual({
      profile: { riskAppetite: 'MEDIUM', focusMetric: 'CPA' },
      customized: false,
      updatedAt: null,
    });
    await setProfile(sql, 'usr_member', { focusMetric: 'CTR' }, NOW);
    expect(await setProfile(sql, 'usr_member', { riskAppetite: 'LOW' }, NOW)).toEqual({
      riskAppetite: 'LOW',
      focusMetric: 'CTR',
    });
    await expect(setProfile(sql, 'usr_none', {}, NOW)).rejects.toMatchObject({ type: 'not_found' });

    const result = JSON.stringify({
      actionKinds: { rec_1: 'REFRESH_CREATIVE', rec_2: 'CUT_BUDGET', rec_3: 'REFRESH_CREATIVE' },
    });
    await diagnostic(sql, { id: 'diag_1', result });
    await diagnostic(sql, { id: 'diag_2', result });
    await diagnostic(sql, { id: 'diag_run', status: 'running', completedAt: null, result });
    const verdict = (diagnosticId: string, recommendationId: string, feedback: 'applied' | 'dismissed') =>
      recordFeedback(sql, { userId: 'usr_member', diagnosticId, recommendationId, feedback, now: NOW });
    expect(await verdict('diag_1', 'rec_1', 'applied')).toEqual({ actionKind: 'REFRESH_CREATIVE' });
    await verdict('diag_1', 'rec_1', 'dismissed'); // replaces the first verdict
    await verdict('diag_1', 'rec_3', 'applied');
    await verdict('diag_2', 'rec_1', 'dismissed');
    await verdict('diag_2', 'rec_2', 'applied');
    await expect(verdict('diag_2', 'rec_9', 'applied')).rejects.toMatchObject({ type: 'not_found' });
    await expect(verdict('diag_run', 'rec_1', 'applied')).rejects.toMatchObject({ type: 'not_found' });

    const learned = await learnedFor(sql, 'usr_member');
    expect(learned.customized).toBe(true);
    expect(learned.profile).toEqual({ riskAppetite: 'LOW', focusMetric: 'CTR' });
    expect(Object.fromEntries(learned.feedback)).toEqual({
      REFRESH_CREATIVE: { applied: 1, dismissed: 2 },
      CUT_BUDGET: { applied: 1, dismissed: 0 },
    });
    expect((await learnedFor(sql, null)).feedback.size).toBe(0);
    expect(await feedbackGiven(sql, 'diag_1', 'usr_member')).toEqual({
      rec_1: 'dismissed',
      rec_3: 'applied',
    });
    expect(await feedbackGiven(sql, 'diag_1', 'usr_owner')).toEqual({});
    await close();
  });

  it('reads the history of a scope, the diagnostic before one, and an entity’s days', async () => {
    const { sql, close } = await engines.open(engine);
    await world(sql);
    await days(sql);
    const at = (day: number, hour = 0) => `2026-03-${String(day).padStart(2, '0')}T0${hour}:00:00.000Z`;
    await diagnostic(sql, { id: 'diag_a', createdAt: at(10) });
    await diagnostic(sql, { id: 'diag_c', createdAt: at(12) });
    await diagnostic(sql, { id: 'diag_b', createdAt: at(12) }); // same instant: ID breaks the tie
    await diagnostic(sql, { id: 'diag_f', createdAt: at(13), status: 'failed' });
    await diagnostic(sql, { id: 'diag_p', createdAt: at(13), status: 'pending', completedAt: null });
    await diagnostic(sql, { id: 'diag_w1', campaignId: null, createdAt: at(11) });
    await diagnostic(sql, { id: 'diag_w2', campaignId: null, createdAt: at(13) });
    await diagnostic(sql, { id: 'diag_o', workspaceId: 'ws_b', campaignId: null, createdAt: at(14) });
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
    expect(ids(await completedDiagnostics(sql, 'ws_a', 'acc_1', 'cmp_1', 50))).toEqual([
      'diag_c',
      'diag_b',
      'diag_a',
    ]);
    expect(ids(await completedDiagnostics(sql, 'ws_a', 'acc_1', 'cmp_1', 2))).toEqual(['diag_c', 'diag_b']);
    const [account] = await completedDiagnostics(sql, 'ws_a', 'acc_1', null, 50);
    expect(account).toEqual({
      id: 'diag_w2',
      risk_level: 'LOW',
      issues_detected: 0,
      date_from: '2026-03-01',
      date_to: '2026-03-14',
      completed_at: at(13),
      trigger: 'manual',
    });
    const before = (id: string, campaignId: string | null, day: number) =>
      previousDiagnosticId(sql, { id, accountId: 'acc_1', campaignId, completedAt: at(day) });
    expect(await before('diag_c', 'cmp_1', 12)).toBe('diag_b');
    expect(await before('diag_b', 'cmp_1', 12)).toBe('diag_a');
    expect(await before('diag_a', 'cmp_1', 10)).toBeNull();
    expect(await before('diag_w2', null, 13)).toBe('diag_w1');

    const series = await entityDays(sql, 'campaign', 'cmp_2', '2026-03-09', '2026-03-11');
    expect(series).toEqual([
      {
        date: '2026-03-10',
        spend_micros: 2_000_000,
        impressions: 500,
        clicks: 10,
        conversions: 1,
        reach: 400,
      },
      {
        date: '2026-03-11',
        spend_micros: 2_000_000,
        impressions: 500,
        clicks: 10,
        conversions: 1,
        reach: 400,
      },
    ]);
    expect((await entityDays(sql, 'ad', 'ad_1', '2026-03-14', '2026-03-14'))[0]?.spend_micros).toBe(
      9_007_199_268,
    );
    expect((await entityDays(sql, 'account', 'acc_1', '2026-03-14', '2026-03-14'))[0]).toMatchObject({
      spend_micros: 9_007_199_268 + 2_000_000,
      impressions: 14_500,
    });
    await close();
  });

  it('lists stored diagnostics by accounts and filters, the latest per campaign, and feedback in scope', async () => {
    const { sql, close } = await engines.open(engine);
    await world(sql);
    await diagnostic(sql, {
      id: 'diag_1',
      createdAt: '2026-03-10T00:00:00.000Z',
      riskLevel: 'HIGH',
      issues: 2,
    });
    await diagnostic(sql, {
      id: 'diag_2',
      createdAt: '2026-03-12T00:00:00.000Z',
      riskLevel: 'LOW',
      issues: 1,
    });
    await diagnostic(sql, { id: 'diag_3', campaignId: 'cmp_2', createdAt: '2026-03-11T00:00:00.000Z' });
    await diagnostic(sql, {
      id: 'diag_4',
      campaignId: 'cmp_2',
      status: 'failed',
      createdAt: '2026-03-13T00:00:00.000Z',
    });
    await diagnostic(sql, {
      id: 'diag_5',
      accountId: 'acc_2',
      campaignId: 'cmp_9',
      createdAt: '2026-03-09T00:00:00.000Z',
    });
    await diagnostic(sql, { id: 'diag_6', campaignId: null, createdAt: '2026-03-14T00:00:00.000Z' });
    const service = new DiagnosticsService(coreOn(sql));
    const ctx = { workspaceId: 'ws_a', userId: null };
    const list = (f: Partial<Parameters<DiagnosticsService['list']>[1]> = {}) =>
      service.list(ctx, { accounts: { ids: ['acc_1'] }, page: 1, pageSize: 20, ...f });
    const all = await list();
    expect(all.total).toBe(5);
    expect(all.items.map((d) => d.id)).toEqual(['diag_6', 'diag_4', 'diag_2', 'diag_3', 'diag_1']);
    expect(all.items[2]).toMatchObject({ campaignName: 'Alpha', accountName: 'Acme', riskLevel: 'LOW' });
    expect(
      (await list({ accounts: { ids: ['acc_1', 'acc_2'] }, pageSize: 2, page: 3 })).items.map((d) => d.id),
    ).toEqual(['diag_1', 'diag_5']);
    // Every account a request may see: the workspace's, of its mode (acc_2 made live), no list of IDs.
    await sql.run(`UPDATE ad_accounts SET mode = 'live' WHERE id = 'acc_2'`);
    const visibleTo = (mode: 'test' | 'live' | 'all', workspaceId = 'ws_a') => ({
      visibleTo: { workspaceId, plan: 'agency' as const, userId: null, keyId: null, mode },
    });
    expect((await list({ accounts: visibleTo('live') })).items.map((d) => d.id)).toEqual(['diag_5']);
    expect(await list({ accounts: visibleTo('test') })).toMatchObject({ total: 5 });
    expect(await list({ accounts: visibleTo('all'), pageSize: 2, page: 3 })).toMatchObject({
      total: 6,
      items: [
        { id: 'diag_1', accountName: 'Acme' },
        { id: 'diag_5', accountName: 'Bolt' },
      ],
    });
    expect(await list({ accounts: visibleTo('live'), riskLevel: 'HIGH' })).toMatchObject({ total: 0 });
    expect(
      await service.list(
        { workspaceId: 'ws_b', userId: null },
        { accounts: visibleTo('all', 'ws_b'), page: 1, pageSize: 20 },
      ),
    ).toEqual({ items: [], total: 0 });
    expect((await list({ riskLevel: 'HIGH' })).items.map((d) => d.id)).toEqual(['diag_1']);
    expect((await list({ status: 'failed' })).total).toBe(1);
    expect((await list({ campaignId: 'cmp_2' })).items.map((d) => d.id)).toEqual(['diag_4', 'diag_3']);
    expect((await list({ dateStart: '2026-03-11', dateEnd: '2026-03-12' })).items.map((d) => d.id)).toEqual([
      'diag_2',
      'diag_3',
    ]);
    // Whole UTC days: the next day's midnight is out, the day's own is in.
    expect((await list({ dateStart: '2026-03-11', dateEnd: '2026-03-11' })).items.map((d) => d.id)).toEqual([
      'diag_3',
    ]);
    expect((await list({ dateStart: '2026-03-12', dateEnd: '2026-03-12' })).items.map((d) => d.id)).toEqual([
      'diag_2',
    ]);
    expect(await service.get(ctx, 'diag_2')).toMatchObject({ id: 'diag_2', status: 'completed' });
    expect(await service.get({ workspaceId: 'ws_b', userId: null }, 'diag_2')).toBeUndefined();

    const latest = await service.latestForCampaigns(['cmp_1', 'cmp_2', 'cmp_3']);
    expect(Object.fromEntries(latest)).toEqual({
      cmp_1: { id: 'diag_2', riskLevel: 'LOW', issuesDetected: 1, completedAt: '2026-03-12T00:00:00.000Z' },
      cmp_2: { id: 'diag_3', riskLevel: 'LOW', issuesDetected: 0, completedAt: '2026-03-11T00:00:00.000Z' },
    });
    // The owner stands in for a key without a user; feedback is refused outside the workspace.
    expect(await service.userFor(ctx)).toBe('usr_owner');
    expect(await service.getProfile(ctx)).toMatchObject({ userId: 'usr_owner', focusMetric: 'CPA' });
    await expect(
      service.feedback(
        { workspaceId: 'ws_b', userId: null },
        { diagnosticId: 'diag_2', recommendationId: 'rec_1', feedback: 'applied' },
      ),
    ).rejects.toMatchObject({ type: 'not_found' });
    await close();
  });

  it('loads the snapshots, delivery, peers, goals and Meta’s advice a diagnosis reads', async () => {
    const { sql, close } = await engines.open(engine);
    await world(sql);
    await days(sql);
    expect(await campaignsWithDelivery(sql, 'acc_1', '2026-03-01', '2026-03-14')).toEqual(['cmp_1', 'cmp_2']);
    expect(await campaignsWithDelivery(sql, 'acc_1', '2026-03-01', '2026-03-09')).toEqual(['cmp_1']);
    expect(await accountPeers(sql, 'acc_1', '2026-03-13', '2026-03-14')).toEqual([
      {
        campaignId: 'cmp_1',
        resultType: 'PURCHASE',
        spend: 2 * 9_007_199_254 + 27,
        conversions: 6,
        revenue: 51_000_000,
      },
      { campaignId: 'cmp_2', resultType: 'LEAD', spend: 4_000_000, conversions: 2, revenue: 0 },
      { campaignId: 'cmp_3', resultType: null, spend: 0, conversions: 0, revenue: 0 },
    ]);

    const [alpha, beta] = await loadCampaigns(
      sql,
      ['cmp_2', 'cmp_1', 'cmp_none'],
      '2026-03-13',
      '2026-03-14',
    );
    expect([alpha?.id, beta?.id]).toEqual(['cmp_1', 'cmp_2']);
    expect(alpha?.daily.get('2026-03-14')).toEqual({
      date: '2026-03-14',
      spend: 9_007_199_268,
      impressions: 14_000,
      clicks: 10,
      linkClicks: 7,
      conversions: 3,
      revenue: 25_500_000,
      reach: 400,
      frequency: 1.25,
    });
    expect([...(alpha?.daily.keys() ?? [])]).toEqual(['2026-03-13', '2026-03-14']);
    expect(alpha?.adSets.map((s) => [s.id, s.daily.size])).toEqual([['as_1', 2]]);
    expect(alpha?.ads.map((a) => [a.id, a.daily.size, a.issues])).toEqual([['ad_1', 2, []]]);
    expect(alpha?.account).toMatchObject({ status: 'active' });
    const [light] = await loadCampaigns(sql, ['cmp_1'], '2026-03-13', '2026-03-14', { adSetsOnly: true });
    expect([light?.ads.length, light?.daily.size, light?.adSets[0]?.daily.size]).toEqual([0, 0, 2]);

    expect(await loadMetaRecommendations(sql, 'acc_1', null)).toBeNull();
    await sql.run(
      `UPDATE ad_accounts SET opportunity_score = 71, platform_recommendations_read_at = ? WHERE id = 'acc_1'`,
      [NOW],
    );
    for (const [position, campaignId] of [
      [1, 'cmp_2'],
      [2, null],
      [3, 'cmp_1'],
    ] as const)
      await sql.run(
        `INSERT INTO platform_recommendations (account_id, campaign_id, position, type, title, body)
         VALUES ('acc_1', ?, ?, 'BUDGET', ?, 'body')`,
        [campaignId, position, `Advice ${position}`],
      );
    const titles = async (campaignId: string | null) =>
      (await loadMetaRecommendations(sql, 'acc_1', campaignId))?.items.map((i) => [i.title, i.campaignName]);
    expect(await titles(null)).toEqual([
      ['Advice 1', 'Beta'],
      ['Advice 2', null],
      ['Advice 3', 'Alpha'],
    ]);
    expect(await titles('cmp_1')).toEqual([
      ['Advice 2', null],
      ['Advice 3', 'Alpha'],
    ]);

    // A goal of the account and one of Alpha's own: the same diagnosis from either engine.
    await sql.run(
      `INSERT INTO goals (account_id, campaign_id, kind, target, updated_at) VALUES ('acc_1', NULL, 'ROAS', 2.5, ?)`,
      [NOW],
    );
    await sql.run(
      `INSERT INTO goals (account_id, campaign_id, kind, target, updated_at) VALUES ('acc_1', 'cmp_1', 'CPA', 12.5, ?)`,
      [NOW],
    );
    const job = {
      dataDir: '',
      accountId: 'acc_1',
      userId: null,
      dateFrom: '2026-03-08',
      dateTo: '2026-03-14',
    };
    const ofCampaign = await computeDiagnosis(sql, { ...job, campaignId: 'cmp_1' });
    const ofAccount = await computeDiagnosis(sql, { ...job, campaignId: null });
    expect(ofAccount.metaRecommendations?.items).toHaveLength(3);
    expect(ofAccount.campaignsAnalyzed).toBe(2);
    expect(ofAccount.goalChecks.map((g) => [g.campaignId, g.goal?.kind])).toEqual([
      ['cmp_1', 'CPA'],
      ['cmp_2', 'ROAS'],
    ]);
    const both = JSON.stringify([ofCampaign, ofAccount]);
    if (engine === 'postgres') expect(both).toBe(diagnoses.get('sqlite'));
    diagnoses.set(engine, both);
    await close();
  });
});
