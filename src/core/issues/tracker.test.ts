// A completed diagnosis updates the issues of the campaigns it judged. An account's diagnosis judges up
// to thousands: their issues are reconciled in parts, a transaction each, with the host's thread free
// between them (SQLite's statements are synchronous: one transaction for all held it 45–55 ms).
import { afterAll, describe, expect, it } from 'vitest';
import { seedAccountRows } from '../../test-support/ad-rows';
import { engineStores, ENGINES, seedWorkspaceRows } from '../../test-support/engines';
import { ISSUE_AT, seededIssue } from '../../test-support/issue-rows';
import { fixedClock } from '../clock';
import type { Core } from '../core';
import { CoreEvents } from '../events';
import { insertIssue } from './store';
import { trackDiagnosis } from './tracker';

const engines = engineStores();
afterAll(() => engines.stop(), 60_000);

const AT = ISSUE_AT;
const CAMPAIGNS = Array.from({ length: 250 }, (_, i) => `cmp_${String(i).padStart(3, '0')}`);

/** An issue open from before, of a type this diagnosis does not find. */
const liveIssue = (id: string, campaignId: string) =>
  seededIssue(id, {
    campaign_id: campaignId,
    type: 'CREATIVE_FATIGUE',
    entity_id: campaignId,
    entity_name: campaignId,
    title: 'Creative fatigue',
    description: 'frequency up',
    evidence: '{}',
    diagnostic_id: 'diag_old',
  });

describe.each(ENGINES)('issues of a large diagnosis on %s', (engine) => {
  it('are reconciled in parts, with the host free between them, as one diagnosis', async () => {
    const { sql, close } = await engines.open(engine);
    await seedWorkspaceRows(sql, 'ws_a');
    await seedAccountRows(
      sql,
      'ws_a',
      { id: 'acc_1', name: 'Acme' },
      CAMPAIGNS.map((id) => ({ id, name: id })),
    );
    await sql.run(
      `INSERT INTO diagnostics (id, workspace_id, account_id, status, date_from, date_to, created_at, trigger)
       VALUES ('diag_old', 'ws_a', 'acc_1', 'completed', '2026-03-03', '2026-03-09', ?, 'automatic')`,
      [AT],
    );
    // Two issues open from before, in the first part and the last: this diagnosis no longer finds them.
    await insertIssue(sql, liveIssue('iss_early', 'cmp_010'));
    await insertIssue(sql, liveIssue('iss_late', 'cmp_240'));
    const issues = CAMPAIGNS.filter((_, i) => i % 2 === 0).map((id) => ({
      type: 'CPA_DEGRADATION',
      campaignId: id,
      affectedEntity: { type: 'campaign', id, name: id },
      severity: 'MEDIUM',
      title: 'Cost per result up',
      description: 'the last 7 days',
      evidence: {},
    }));
    await sql.run(
      `INSERT INTO diagnostics (id, workspace_id, account_id, status, date_from, date_to, created_at, trigger,
         campaign_scope, result)
       VALUES ('diag_big', 'ws_a', 'acc_1', 'completed', '2026-03-04', '2026-03-10', ?, 'automatic', ?, ?)`,
      [AT, JSON.stringify(CAMPAIGNS), JSON.stringify({ issues })],
    );
    const core = { sql, clock: fixedClock(AT), events: new CoreEvents() } as unknown as Core;
    // How often the host's thread ran other work while the diagnosis's issues were written.
    let turns = 0;
    let tracking = true;
    const turn = () => {
      if (!tracking) return;
      turns += 1;
      setImmediate(turn);
    };
    setImmediate(turn);
    await trackDiagnosis(core, 'diag_big');
    tracking = false;
    expect(turns).toBeGreaterThanOrEqual(2);
    const states = await sql.all<{ state: string; n: number }>(
      `SELECT state, count(*) AS n FROM issues WHERE account_id = 'acc_1' GROUP BY state ORDER BY state`,
    );
    expect(states.map((r) => [r.state, Number(r.n)])).toEqual([
      ['open', 125],
      ['resolved', 2],
    ]);
    const retained = await sql.get<{ retained: number }>(
      `SELECT retained FROM diagnostics WHERE id = 'diag_big'`,
    );
    expect(Number(retained?.retained)).toBe(1);
    await close();
  });
});
