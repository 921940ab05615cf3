// The issues store and lifecycle on both engines: rows written and updated whole, the live issues of
// campaigns through a JSON list ('' for account-wide ones), the most recent resolution of a key,
// snoozes due, the list's filters and order, and a diagnosis reconciled in one transaction.
import { afterAll, describe, expect, it } from 'vitest';
import { seedAccountRows } from '../../test-support/ad-rows';
import { engineStores, ENGINES, seedWorkspaceRows } from '../../test-support/engines';
import { ISSUE_AT, seededIssue } from '../../test-support/issue-rows';
import { fixedClock } from '../clock';
import type { RequestContext } from '../identity/access';
import type { Core } from '../core';
import { CoreEvents } from '../events';
import type { Sql } from '../store/sql';
import { reconcileIssues, wakeSnoozed, type FoundIssue } from './lifecycle';
import {
  insertIssue,
  issueRow,
  listIssueRows,
  liveIssuesOf,
  namesFor,
  recentlyResolved,
  snoozesDue,
  updateIssue,
  type IssueRow,
} from './store';

const engines = engineStores();
afterAll(() => engines.stop(), 60_000);

const AT = ISSUE_AT;

async function world(sql: Sql): Promise<void> {
  await seedWorkspaceRows(sql, 'ws_a');
  await seedWorkspaceRows(sql, 'ws_b');
  await seedAccountRows(sql, 'ws_a', { id: 'acc_1', name: 'Acme' }, [
    { id: 'cmp_1', name: 'Alpha' },
    { id: 'cmp_2', name: 'Beta' },
  ]);
  await seedAccountRows(sql, 'ws_a', { id: 'acc_2', name: 'Bolt' }, [{ id: 'cmp_3', name: 'Gamma' }]);
  await seedAccountRows(sql, 'ws_b', { id: 'acc_9', name: 'Other' });
}

/** What reconcileIssues needs of a core: the boundary, a clock and the event bus. */
const coreOn = (sql: Sql, at: string): Core =>
  ({ sql, clock: fixedClock(at), events: new CoreEvents() }) as unknown as Core;

describe.each(ENGINES)('the issues store on %s', (engine) => {
  it('writes and updates a row whole, and reads live issues of campaigns and account-wide ones', async () => {
    const { sql, close } = await engines.open(engine);
    await world(sql);
    const alpha = seededIssue('iss_1');
    await insertIssue(sql, alpha);
    await insertIssue(sql, seededIssue('iss_2', { campaign_id: null, type: 'TRACKING', entity_id: 'acc_1' }));
    await insertIssue(
      sql,
      seededIssue('iss_3', { campaign_id: 'cmp_2', state: 'resolved', resolved_at: AT }),
    );
    await insertIssue(sql, seededIssue('iss_4', { campaign_id: 'cmp_2', type: 'CTR_DECLINE' }));
    await insertIssue(sql, seededIssue('iss_5', { account_id: 'acc_2', campaign_id: 'cmp_3' }));
    expect(await issueRow(sql, 'ws_a', 'iss_1')).toEqual(alpha);
    expect(await issueRow(sql, 'ws_b', 'iss_1')).toBeUndefined();

    const changed = seededIssue('iss_1', {
      entity_name: 'Alpha (renamed)',
      state: 'snoozed',
      severity: 'CRITICAL',
      peak_severity: 'CRITICAL',
      snoozed_until: '2026-03-12',
      snooze_until_worse: 1,
      acknowledged_by: 'usr_1',
      history: '[{"change":"snoozed"}]',
      updated_at: '2026-03-10T13:00:00.000Z',
      // Key columns never change on an update.
      type: 'OTHER',
      campaign_id: 'cmp_2',
    });
    await updateIssue(sql, changed);
    expect(await issueRow(sql, 'ws_a', 'iss_1')).toEqual({
      ...changed,
      type: alpha.type,
      campaign_id: 'cmp_1',
    });

    const ids = async (campaigns: (string | null)[]) =>
      (await liveIssuesOf(sql, 'acc_1', campaigns)).map((r) => r.id).sort();
    expect(await ids(['cmp_1'])).toEqual(['iss_1']);
    expect(await ids([null])).toEqual(['iss_2']);
    expect(await ids([null, 'cmp_1', 'cmp_2'])).toEqual(['iss_1', 'iss_2', 'iss_4']);
    expect(await ids(['cmp_3'])).toEqual([]);
    await close();
  });

  it('finds the latest resolution of a key since a date, and the snoozes due', async () => {
    const { sql, close } = await engines.open(engine);
    await world(sql);
    const resolved = (id: string, at: string, over: Partial<IssueRow> = {}) =>
      insertIssue(sql, seededIssue(id, { state: 'resolved', resolved_at: at, ...over }));
    await resolved('iss_old', '2026-03-01T00:00:00.000Z');
    await resolved('iss_new', '2026-03-08T00:00:00.000Z');
    await resolved('iss_mid', '2026-03-05T00:00:00.000Z');
    await resolved('iss_wide', '2026-03-09T00:00:00.000Z', { campaign_id: null });
    const key = { accountId: 'acc_1', campaignId: 'cmp_1', type: 'CPA_DEGRADATION', entityId: 'cmp_1' };
    expect((await recentlyResolved(sql, key, '2026-03-03'))?.id).toBe('iss_new');
    expect(await recentlyResolved(sql, key, '2026-03-09')).toBeUndefined();
    expect((await recentlyResolved(sql, { ...key, campaignId: null }, '2026-03-03'))?.id).toBe('iss_wide');

    await insertIssue(sql, seededIssue('iss_due', { state: 'snoozed', snoozed_until: '2026-03-09' }));
    await insertIssue(
      sql,
      seededIssue('iss_today', { state: 'snoozed', snoozed_until: '2026-03-10', type: 'B' }),
    );
    await insertIssue(sql, seededIssue('iss_worse', { state: 'snoozed', snoozed_until: null, type: 'C' }));
    expect((await snoozesDue(sql, '2026-03-10')).map((r) => r.id)).toEqual(['iss_due']);
    await close();
  });

  it('lists by accounts, states, least severity and campaign, worst and newest first, with names', async () => {
    const { sql, close } = await engines.open(engine);
    await world(sql);
    await insertIssue(
      sql,
      seededIssue('iss_a', { severity: 'MEDIUM', updated_at: '2026-03-10T09:00:00.000Z' }),
    );
    await insertIssue(
      sql,
      seededIssue('iss_b', {
        severity: 'CRITICAL',
        campaign_id: null,
        type: 'T',
        updated_at: '2026-03-09T09:00:00.000Z',
      }),
    );
    await insertIssue(
      sql,
      seededIssue('iss_c', { severity: 'MEDIUM', type: 'U', updated_at: '2026-03-10T10:00:00.000Z' }),
    );
    await insertIssue(sql, seededIssue('iss_d', { severity: 'LOW', type: 'V', state: 'acknowledged' }));
    await insertIssue(sql, seededIssue('iss_e', { type: 'W', state: 'resolved', resolved_at: AT }));
    await insertIssue(
      sql,
      seededIssue('iss_f', { account_id: 'acc_2', campaign_id: 'cmp_3', severity: 'HIGH' }),
    );
    const list = (over: Partial<Parameters<typeof listIssueRows>[1]> = {}) =>
      listIssueRows(sql, {
        workspaceId: 'ws_a',
        accounts: { ids: ['acc_1'] },
        states: ['open', 'acknowledged', 'snoozed'],
        minSeverityRank: 1,
        page: 1,
        pageSize: 10,
        ...over,
      });
    const all = await list();
    expect(all.total).toBe(4);
    expect(all.rows.map((r) => r.id)).toEqual(['iss_b', 'iss_c', 'iss_a', 'iss_d']);
    expect(all.rows[0]).toMatchObject({ account_name: 'Acme', campaign_name: null });
    expect(all.rows[1]).toMatchObject({ account_name: 'Acme', campaign_name: 'Alpha' });
    const page2 = await list({ pageSize: 2, page: 2 });
    expect(page2).toMatchObject({ total: 4 });
    expect(page2.rows.map((r) => r.id)).toEqual(['iss_a', 'iss_d']);
    expect((await list({ minSeverityRank: 2, campaignId: 'cmp_1' })).rows.map((r) => r.id)).toEqual([
      'iss_c',
      'iss_a',
    ]);
    expect((await list({ states: ['resolved'] })).rows.map((r) => r.id)).toEqual(['iss_e']);
    expect(
      (await list({ accounts: { ids: ['acc_1', 'acc_2'] }, minSeverityRank: 3 })).rows.map((r) => r.id),
    ).toEqual(['iss_b', 'iss_f']);
    expect((await list({ workspaceId: 'ws_b' })).total).toBe(0);
    expect(await namesFor(sql, seededIssue('x', { campaign_id: 'cmp_2' }))).toEqual({
      account_name: 'Acme',
      campaign_name: 'Beta',
    });
    await close();
  });

  it("pages one state of several accounts in the list's order: severity, newest, then ID among equals", async () => {
    const { sql, close } = await engines.open(engine);
    await world(sql);
    // Resolved issues of two accounts (and of another workspace), with equal severities and instants.
    const resolved = [
      ['r_1', 'acc_1', 'HIGH', '2026-03-01T00:00:00.000Z'],
      ['r_2', 'acc_2', 'HIGH', '2026-03-05T00:00:00.000Z'],
      ['r_3', 'acc_1', 'LOW', '2026-03-09T00:00:00.000Z'],
      ['r_5', 'acc_1', 'CRITICAL', '2026-03-02T00:00:00.000Z'],
      ['r_4', 'acc_2', 'CRITICAL', '2026-03-02T00:00:00.000Z'],
      ['r_6', 'acc_2', 'MEDIUM', '2026-03-03T00:00:00.000Z'],
    ] as const;
    for (const [id, account, severity, at] of resolved)
      await insertIssue(
        sql,
        seededIssue(id, {
          account_id: account,
          campaign_id: null,
          type: id,
          entity_id: id,
          severity,
          state: 'resolved',
          updated_at: at,
          resolved_at: at,
        }),
      );
    await insertIssue(
      sql,
      seededIssue('r_other', {
        workspace_id: 'ws_b',
        account_id: 'acc_9',
        campaign_id: null,
        state: 'resolved',
      }),
    );
    await insertIssue(sql, seededIssue('o_1', { severity: 'CRITICAL' }));
    const page = (n: number, over: Partial<Parameters<typeof listIssueRows>[1]> = {}) =>
      listIssueRows(sql, {
        workspaceId: 'ws_a',
        accounts: { ids: ['acc_1', 'acc_2'] },
        states: ['resolved'],
        minSeverityRank: 1,
        page: n,
        pageSize: 4,
        ...over,
      });
    const first = await page(1);
    expect(first.total).toBe(6);
    expect(first.rows.map((r) => r.id)).toEqual(['r_4', 'r_5', 'r_2', 'r_1']);
    expect((await page(2)).rows.map((r) => r.id)).toEqual(['r_6', 'r_3']);
    // One account of the two; and the least severity cuts below.
    expect((await page(1, { accounts: { ids: ['acc_2', 'acc_9'] } })).rows.map((r) => r.id)).toEqual([
      'r_4',
      'r_2',
      'r_6',
    ]);
    expect((await page(1, { minSeverityRank: 3 })).rows.map((r) => r.id)).toEqual([
      'r_4',
      'r_5',
      'r_2',
      'r_1',
    ]);
    expect((await page(1, { minSeverityRank: 3 })).total).toBe(4);
    // The totals come from kept counts (migration 22): they follow every write, whoever writes it.
    const counted = async (over: Partial<Parameters<typeof listIssueRows>[1]>) => {
      const f = { accounts: { ids: ['acc_1', 'acc_2'] }, states: ['resolved'], minSeverityRank: 1, ...over };
      const ids =
        'ids' in f.accounts
          ? f.accounts.ids
          : (
              await sql.all<{ id: string }>(
                `SELECT id FROM ad_accounts WHERE workspace_id = ? AND (? = 'all' OR mode = ?)`,
                [f.accounts.visibleTo.workspaceId, f.accounts.visibleTo.mode, f.accounts.visibleTo.mode],
              )
            ).map((a) => a.id);
      const rank = `CASE severity WHEN 'LOW' THEN 1 WHEN 'MEDIUM' THEN 2 WHEN 'HIGH' THEN 3 ELSE 4 END`;
      const direct = await sql.get<{ n: number }>(
        `SELECT count(*) AS n FROM issues WHERE workspace_id = 'ws_a' AND account_id IN (${['', ...ids]
          .map(() => '?')
          .join(', ')}) AND state IN (${f.states.map(() => '?').join(', ')}) AND ${rank} >= ?`,
        ['', ...ids, ...f.states, f.minSeverityRank],
      );
      expect((await page(1, over)).total, JSON.stringify(over)).toBe(Number(direct?.n));
      return Number(direct?.n);
    };
    await sql.run(`UPDATE issues SET state = 'open', resolved_at = NULL WHERE id = 'r_1'`);
    await sql.run(`UPDATE issues SET severity = 'LOW' WHERE id = 'r_4'`);
    await sql.run(`UPDATE issues SET updated_at = '2026-03-11T00:00:00.000Z' WHERE id = 'r_6'`);
    await sql.run(`DELETE FROM issues WHERE id = 'r_2'`);
    await sql.run(`UPDATE issues SET account_id = 'acc_1' WHERE id = 'r_6'`);
    expect(await counted({})).toBe(4);
    expect(await counted({ minSeverityRank: 3 })).toBe(1);
    expect(await counted({ accounts: { ids: ['acc_2'] } })).toBe(1);
    expect(await counted({ states: ['open', 'resolved'] })).toBe(6);
    expect(await counted({ states: ['open', 'acknowledged'], accounts: { ids: ['acc_1'] } })).toBe(2);

    // Every account a request may see: the workspace's, of the request's mode, with no list of IDs.
    await sql.run(`UPDATE ad_accounts SET mode = 'live' WHERE id = 'acc_2'`);
    const visibleTo = (mode: RequestContext['mode'], workspaceId = 'ws_a') => ({
      visibleTo: { workspaceId, plan: 'agency' as const, userId: null, keyId: null, mode },
    });
    expect((await page(1, { accounts: visibleTo('live') })).rows.map((r) => r.id)).toEqual(['r_4']);
    expect((await page(1, { accounts: visibleTo('test') })).rows.map((r) => r.id)).toEqual([
      'r_5',
      'r_6',
      'r_3',
    ]);
    expect((await page(1, { accounts: visibleTo('all') })).rows.map((r) => r.id)).toEqual([
      'r_5',
      'r_6',
      'r_3',
      'r_4',
    ]);
    expect(await counted({ accounts: visibleTo('live') })).toBe(1);
    expect(await counted({ accounts: visibleTo('test') })).toBe(3);
    expect(await counted({ accounts: visibleTo('all'), states: ['open', 'resolved'] })).toBe(6);
    expect(await counted({ accounts: visibleTo('test'), minSeverityRank: 4 })).toBe(1);
    expect(await page(1, { accounts: visibleTo('all', 'ws_b'), workspaceId: 'ws_b' })).toMatchObject({
      total: 1,
      rows: [{ id: 'r_other' }],
    });
    const openOf = (mode: RequestContext['mode']) =>
      page(1, { accounts: visibleTo(mode), campaignId: 'cmp_1', states: ['open'] });
    expect(await openOf('test')).toMatchObject({ total: 1, rows: [{ id: 'o_1' }] });
    expect(await openOf('live')).toMatchObject({ total: 0, rows: [] });
    await close();
  });

  it('reconciles diagnoses in one transaction: opened, worse, resolved, reopened, and snoozes woken', async () => {
    const { sql, close } = await engines.open(engine);
    await world(sql);
    const found = (severity: FoundIssue['severity'], campaignId: string | null = 'cmp_1'): FoundIssue => ({
      campaignId,
      type: 'CPA_DEGRADATION',
      entity: { id: campaignId ?? 'acc_1', name: 'Alpha' },
      severity,
      title: 'Cost per result up',
      description: 'the last 7 days',
      evidence: { cpaChange: 0.6 },
    });
    const diagnose = (at: string, diagnosticId: string, ...issues: FoundIssue[]) =>
      reconcileIssues(coreOn(sql, at), {
        workspaceId: 'ws_a',
        accountId: 'acc_1',
        diagnosticId,
        judgedCampaignIds: [null, 'cmp_1'],
        found: issues,
      });
    for (const id of ['diag_1', 'diag_2', 'diag_2b', 'diag_3', 'diag_4'])
      await sql.run(
        `INSERT INTO diagnostics (id, workspace_id, account_id, status, date_from, date_to, created_at, trigger)
         VALUES (?, 'ws_a', 'acc_1', 'completed', '2026-03-01', '2026-03-09', ?, 'automatic')`,
        [id, AT],
      );
    const changes = async (p: ReturnType<typeof diagnose>) => (await p).map((c) => c.change);
    expect(await changes(diagnose(AT, 'diag_1', found('MEDIUM'), found('LOW', null)))).toEqual([
      'opened',
      'opened',
    ]);
    expect(await changes(diagnose(AT, 'diag_2', found('HIGH'), found('LOW', null)))).toEqual(['worsened']);
    // Nothing changed: no history names this diagnosis, so old history may thin it (watch/retention.ts).
    expect(await changes(diagnose(AT, 'diag_2b', found('HIGH'), found('LOW', null)))).toEqual([]);
    expect(await changes(diagnose('2026-03-11T00:00:00.000Z', 'diag_3', found('LOW', null)))).toEqual([
      'resolved',
    ]);
    const [reopened] = await diagnose(
      '2026-03-12T00:00:00.000Z',
      'diag_4',
      found('MEDIUM'),
      found('LOW', null),
    );
    expect(reopened).toMatchObject({ change: 'reopened' });
    const row = (await issueRow(sql, 'ws_a', reopened!.issueId))!;
    expect(row).toMatchObject({
      state: 'open',
      resolved_at: null,
      peak_severity: 'HIGH',
      diagnostic_id: 'diag_4',
    });
    expect((JSON.parse(row.history) as { change: string }[]).map((h) => h.change)).toEqual([
      'opened',
      'worsened',
      'resolved',
      'reopened',
    ]);
    const retained = await sql.all<{ id: string; retained: number }>(
      `SELECT id, retained FROM diagnostics ORDER BY id`,
    );
    expect(retained.map((r) => [r.id, Number(r.retained)])).toEqual([
      ['diag_1', 1],
      ['diag_2', 1],
      ['diag_2b', 0],
      ['diag_3', 1],
      ['diag_4', 1],
    ]);
    // A failure inside the transaction leaves nothing half-written: the account-wide issue, updated
    // first, keeps its earlier diagnosis.
    const [wide] = await liveIssuesOf(sql, 'acc_1', [null]);
    expect(wide?.diagnostic_id).toBe('diag_4');
    await expect(
      diagnose('2026-03-12T00:00:00.000Z', 'diag_5', found('LOW', null), {
        ...found('LOW'),
        evidence: 1n as unknown,
      }),
    ).rejects.toThrow();
    expect((await issueRow(sql, 'ws_a', wide!.id))?.diagnostic_id).toBe('diag_4');

    await updateIssue(sql, { ...row, state: 'snoozed', snoozed_until: '2026-03-12' });
    expect(await wakeSnoozed(coreOn(sql, '2026-03-12T12:00:00.000Z'))).toEqual([]);
    const woken = await wakeSnoozed(coreOn(sql, '2026-03-13T00:00:00.000Z'));
    expect(woken.map((c) => [c.issueId, c.change])).toEqual([[row.id, 'unsnoozed']]);
    expect((await issueRow(sql, 'ws_a', row.id))?.state).toBe('open');
    await close();
  });
});
