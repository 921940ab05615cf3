// Old history thinned on both engines: three weeks of hourly automatic diagnoses and seven weeks of
// hourly sync runs, with the rows that must outlive the thinning (a day's last diagnosis, the ones an
// issue or a feedback names, diagnoses someone asked for, unfinished ones, each account's newest runs
// and unjudged ones), thinned in bounded passes until nothing is left to do.
import { afterAll, describe, expect, it } from 'vitest';
import { seedAccountRows } from '../../test-support/ad-rows';
import { engineStores, ENGINES, seedWorkspaceRows } from '../../test-support/engines';
import type { Sql } from '../store/sql';
import {
  ALERT_DELIVERIES_KEPT_DAYS,
  DIAGNOSES_KEPT_WHOLE_DAYS,
  SYNC_RUNS_KEPT_DAYS,
  thinHistory,
} from './retention';

const engines = engineStores();
afterAll(() => engines.stop(), 60_000);

const NOW = new Date('2026-03-21T12:00:00.000Z');
const pad = (n: number) => String(n).padStart(2, '0');
const hourOf = (day: number, hour: number, minute = 0) =>
  `2026-03-${pad(day)}T${pad(hour)}:${pad(minute)}:00.000Z`;

async function diagnosis(
  sql: Sql,
  id: string,
  accountId: string,
  createdAt: string,
  status: string,
  trigger = 'automatic',
): Promise<void> {
  await sql.run(
    `INSERT INTO diagnostics (id, workspace_id, account_id, status, date_from, date_to, result, created_at,
       completed_at, trigger) VALUES (?, 'ws_a', ?, ?, '2026-02-01', '2026-02-28', '{}', ?, ?, ?)`,
    [
      id,
      accountId,
      status,
      createdAt,
      status === 'completed' || status === 'failed' ? createdAt : null,
      trigger,
    ],
  );
}

async function run(
  sql: Sql,
  id: string,
  accountId: string,
  startedAt: string,
  status: string,
  judged = true,
): Promise<void> {
  await sql.run(
    `INSERT INTO sync_runs (id, account_id, kind, status, stats, started_at, finished_at, judged_at)
     VALUES (?, ?, 'incremental', ?, '{"changedCampaignIds":["cmp_1"]}', ?, ?, ?)`,
    [
      id,
      accountId,
      status,
      startedAt,
      status === 'running' ? null : startedAt,
      judged && status === 'completed' ? startedAt : null,
    ],
  );
}

const ids = async (sql: Sql, table: string, accountId: string): Promise<string[]> =>
  (
    await sql.all<{ id: string }>(`SELECT id FROM ${table} WHERE account_id = ? ORDER BY id`, [accountId])
  ).map((r) => r.id);

describe.each(ENGINES)('thinning old history on %s', (engine) => {
  it('keeps the last days whole, then each day’s last diagnosis and every named or asked-for one', async () => {
    const { sql, close } = await engines.open(engine);
    await seedWorkspaceRows(sql, 'ws_a', [{ id: 'usr_1', email: 'a@example.com' }]);
    await seedAccountRows(sql, 'ws_a', { id: 'acc_1', name: 'Acme' }, [{ id: 'cmp_1', name: 'Alpha' }]);
    await seedAccountRows(sql, 'ws_a', { id: 'acc_2', name: 'Bolt' });
    // acc_1: a diagnosis every hour for 21 days; each day's last one failed (its keeper is 22:00's).
    for (let day = 1; day <= 21; day++)
      for (let hour = 0; hour < 24; hour++)
        await diagnosis(
          sql,
          `a_${pad(day)}_${pad(hour)}`,
          'acc_1',
          hourOf(day, hour),
          hour === 23 ? 'failed' : 'completed',
        );
    // acc_2: one day of failures only (nothing to keep), and one stuck diagnosis never finished.
    for (let hour = 0; hour < 3; hour++)
      await diagnosis(sql, `b_05_${pad(hour)}`, 'acc_2', hourOf(5, hour), 'failed');
    await diagnosis(sql, 'b_stuck', 'acc_2', hourOf(2, 5, 30), 'pending');
    // Asked for by an analyst: never thinned.
    await diagnosis(sql, 'm_manual', 'acc_1', hourOf(3, 9, 30), 'completed', 'manual');
    // Named: an issue's current diagnosis, a feedback's, one an issue's history names (retained).
    await sql.run(
      `INSERT INTO issues (id, workspace_id, account_id, campaign_id, type, entity_id, entity_name, state, severity,
         peak_severity, title, description, evidence, diagnostic_id, opened_at, updated_at)
       VALUES ('iss_1', 'ws_a', 'acc_1', 'cmp_1', 'CPA_DEGRADATION', 'cmp_1', 'Alpha', 'open', 'HIGH', 'HIGH',
         'Cost up', 'the week', '{}', 'a_03_10', ?, ?)`,
      [hourOf(3, 10), hourOf(3, 10)],
    );
    await sql.run(
      `INSERT INTO recommendation_feedback (id, user_id, diagnostic_id, recommendation_id, action_kind, feedback,
         created_at) VALUES ('fb_1', 'usr_1', 'a_04_08', 'rec_1', 'budget', 'applied', ?)`,
      [hourOf(4, 9)],
    );
    await sql.run(`UPDATE diagnostics SET retained = 1 WHERE id = 'a_06_07'`);

    // Bounded passes, picking up where the last stopped, until nothing old is left.
    const totals = { diagnoses: 0, passes: 0 };
    for (;;) {
      const pass = await thinHistory(sql, NOW, 3);
      totals.diagnoses += pass.diagnoses;
      totals.passes += 1;
      if (pass.done) break;
      expect(totals.passes).toBeLessThan(40);
    }
    expect(totals.passes).toBeGreaterThan(1);

    const cutoffDay = 21 - DIAGNOSES_KEPT_WHOLE_DAYS; // kept whole from this day on
    const expected: string[] = [];
    for (let day = 1; day <= 21; day++)
      for (let hour = 0; hour < 24; hour++)
        if (day >= cutoffDay || hour === 22) expected.push(`a_${pad(day)}_${pad(hour)}`);
    expected.push('a_03_10', 'a_04_08', 'a_06_07', 'm_manual');
    expect(await ids(sql, 'diagnostics', 'acc_1')).toEqual(expected.sort());
    expect(await ids(sql, 'diagnostics', 'acc_2')).toEqual(['b_stuck']);
    expect(totals.diagnoses).toBe(21 * 24 - (expected.length - 1) + 3);

    // A second pass finds nothing; a later day moves the week on by one day.
    expect(await thinHistory(sql, NOW)).toEqual({
      diagnoses: 0,
      syncRuns: 0,
      alertDeliveries: 0,
      done: true,
    });
    const nextDay = await thinHistory(sql, new Date('2026-03-22T00:30:00.000Z'));
    expect(nextDay.diagnoses).toBe(23);
    expect(await ids(sql, 'diagnostics', 'acc_1')).not.toContain(`a_${pad(cutoffDay)}_21`);
    expect(await ids(sql, 'diagnostics', 'acc_1')).toContain(`a_${pad(cutoffDay)}_22`);
    await close();
  });

  it('keeps a month of sync runs, each account’s newest and newest completed, and unjudged ones', async () => {
    const { sql, close } = await engines.open(engine);
    await seedWorkspaceRows(sql, 'ws_a');
    await seedAccountRows(sql, 'ws_a', { id: 'acc_1', name: 'Acme' });
    await seedAccountRows(sql, 'ws_a', { id: 'acc_2', name: 'Bolt' });
    // acc_1: every 6 hours from Jan 1 to Mar 21, some failed; one old run never judged; one running now.
    const start = Date.parse('2026-01-01T00:00:00.000Z');
    const all: string[] = [];
    for (let i = 0; start + i * 6 * 3_600_000 < NOW.getTime() - 3_600_000; i++) {
      const at = new Date(start + i * 6 * 3_600_000).toISOString();
      const id = `r_${String(i).padStart(4, '0')}`;
      await run(
        sql,
        id,
        'acc_1',
        at,
        i % 7 === 3 ? 'failed' : i % 11 === 5 ? 'interrupted' : 'completed',
        i !== 12,
      );
      all.push(id);
    }
    await run(sql, 'r_running', 'acc_1', NOW.toISOString(), 'running');
    // acc_2: last synced in January: its newest run failed, its newest completed one is older still.
    await run(sql, 'q_1', 'acc_2', '2026-01-03T00:00:00.000Z', 'completed');
    await run(sql, 'q_2', 'acc_2', '2026-01-04T00:00:00.000Z', 'completed');
    await run(sql, 'q_3', 'acc_2', '2026-01-05T00:00:00.000Z', 'failed');

    let deleted = 0;
    for (let pass = 0; pass < 10; pass++) {
      const thinned = await thinHistory(sql, NOW);
      deleted += thinned.syncRuns;
      if (thinned.done) break;
    }
    const before = Date.UTC(2026, 2, 21) - SYNC_RUNS_KEPT_DAYS * 86_400_000; // Feb 19, 00:00
    const kept = all.filter((id, i) => i === 12 || start + i * 6 * 3_600_000 >= before);
    expect(await ids(sql, 'sync_runs', 'acc_1')).toEqual([...kept, 'r_running'].sort());
    expect(await ids(sql, 'sync_runs', 'acc_2')).toEqual(['q_2', 'q_3']);
    expect(deleted).toBe(all.length - kept.length + 1);
    await close();
  });

  it('keeps a month of alert deliveries, each destination’s last, and pending ones', async () => {
    const { sql, close } = await engines.open(engine);
    await seedWorkspaceRows(sql, 'ws_a');
    for (const id of ['dst_busy', 'dst_quiet'])
      await sql.run(
        `INSERT INTO alert_destinations (id, workspace_id, kind, target, types, created_at)
         VALUES (?, 'ws_a', 'webhook', 'http://127.0.0.1/hook', '["issue.opened"]', '2026-01-01T00:00:00.000Z')`,
        [id],
      );
    const delivery = (id: string, destinationId: string, createdAt: string, status: string) =>
      sql.run(
        `INSERT INTO alert_deliveries (id, destination_id, dedupe_key, type, payload, status, attempts, created_at,
           next_attempt_at, expires_at) VALUES (?, ?, ?, 'issue.opened', '{}', ?, 1, ?, ?, ?)`,
        [id, destinationId, `key:${id}`, status, createdAt, createdAt, createdAt],
      );
    // dst_busy: one a day from Jan 1 to Mar 21, one still pending from February; dst_quiet: two in January.
    const days: string[] = [];
    for (let t = Date.UTC(2026, 0, 1); t <= NOW.getTime(); t += 86_400_000) {
      const at = new Date(t).toISOString();
      days.push(at);
      await delivery(`b_${at.slice(0, 10)}`, 'dst_busy', at, t % 3 === 0 ? 'failed' : 'delivered');
    }
    await delivery('b_pending', 'dst_busy', '2026-02-02T05:00:00.000Z', 'pending');
    await delivery('q_1', 'dst_quiet', '2026-01-05T00:00:00.000Z', 'delivered');
    await delivery('q_2', 'dst_quiet', '2026-01-06T00:00:00.000Z', 'failed');

    const thinned = await thinHistory(sql, NOW);
    const before = new Date(Date.UTC(2026, 2, 21) - ALERT_DELIVERIES_KEPT_DAYS * 86_400_000).toISOString();
    const kept = days.filter((at) => at >= before).map((at) => `b_${at.slice(0, 10)}`);
    const left = async (destinationId: string) =>
      (
        await sql.all<{ id: string }>(
          `SELECT id FROM alert_deliveries WHERE destination_id = ? ORDER BY id`,
          [destinationId],
        )
      ).map((r) => r.id);
    expect(await left('dst_busy')).toEqual([...kept, 'b_pending'].sort());
    expect(await left('dst_quiet')).toEqual(['q_2']);
    expect(thinned.alertDeliveries).toBe(days.length - kept.length + 1);
    await close();
  });
});
