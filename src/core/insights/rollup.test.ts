// The account-day rollup (SQLite: three row triggers; PostgreSQL: statement triggers over transition
// tables) equals the sum of the campaign days after any mix of single and multi-row inserts, upserts
// that both insert and update in one statement, and deletes.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { engineStores, ENGINES } from '../../test-support/engines';

const COLUMNS = ['spend_micros', 'impressions', 'clicks', 'conversions', 'revenue_micros', 'reach'] as const;
const OWNER: Record<string, string> = { camp_1: 'act_A', camp_2: 'act_A', camp_3: 'act_B' };

const engines = engineStores();
afterAll(() => engines.stop(), 60_000);

describe.each(ENGINES)('account-day rollup on %s', (engine) => {
  it('equals the sum of campaign rows after any mix of inserts, upserts and deletes', async () => {
    const { sql, close } = await engines.open(engine);
    await sql.run(`INSERT INTO workspaces (id, name, plan, created_at) VALUES ('ws_A', 'A', 'agency', 'x')`);
    await sql.run(
      `INSERT INTO platform_connections (id, workspace_id, base_url, api_version, mode, token_encrypted, created_at, updated_at)
       VALUES ('conn_A', 'ws_A', 'demo:', 'v25.0', 'test', ?, 'x', 'x')`,
      [Buffer.from([0])],
    );
    await sql.run(
      `INSERT INTO ad_accounts (id, workspace_id, connection_id, platform_account_id, mode, name, currency, timezone, status, connected_at)
       VALUES ('act_A', 'ws_A', 'conn_A', 'act_1', 'test', 'A', 'USD', 'UTC', 'active', 'x'),
              ('act_B', 'ws_A', 'conn_A', 'act_2', 'test', 'B', 'USD', 'UTC', 'active', 'x')`,
    );
    await sql.run(
      `INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective, buying_type, created_time, updated_time)
       VALUES ('camp_1', 'act_A', '1', 'c1', 'ACTIVE', 'ACTIVE', 'X', 'AUCTION', 'x', 'x'),
              ('camp_2', 'act_A', '2', 'c2', 'ACTIVE', 'ACTIVE', 'X', 'AUCTION', 'x', 'x'),
              ('camp_3', 'act_B', '3', 'c3', 'ACTIVE', 'ACTIVE', 'X', 'AUCTION', 'x', 'x')`,
    );
    // One statement of 1–3 rows (distinct keys: one statement may not touch a row twice).
    const upsert = (n: number) =>
      `INSERT INTO insights_campaign_daily (campaign_id, date, account_id, ${COLUMNS.join(', ')})
       VALUES ${Array.from({ length: n }, () => `(?, ?, ?, ?, ?, ?, ?, ?, ?)`).join(', ')}
       ON CONFLICT (campaign_id, date) DO UPDATE SET ${COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')}`;
    const row = fc.record({
      campaign: fc.constantFrom('camp_1', 'camp_2', 'camp_3'),
      date: fc.constantFrom('2026-01-01', '2026-01-02', '2026-01-03'),
      v: fc.integer({ min: 0, max: 1_000_000_000 }),
    });
    const op = fc.record({
      kind: fc.constantFrom('upsert', 'upsert', 'delete', 'delete-day'),
      rows: fc.uniqueArray(row, { minLength: 1, maxLength: 3, selector: (r) => `${r.campaign}|${r.date}` }),
    });
    const sums = COLUMNS.map((c) => `sum(${c}) AS ${c}`).join(', ');
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        await sql.run('DELETE FROM insights_campaign_daily');
        await sql.run('DELETE FROM insights_account_daily');
        for (const o of ops) {
          const first = o.rows[0]!;
          if (o.kind === 'delete')
            await sql.run(`DELETE FROM insights_campaign_daily WHERE campaign_id = ? AND date = ?`, [
              first.campaign,
              first.date,
            ]);
          else if (o.kind === 'delete-day')
            await sql.run(`DELETE FROM insights_campaign_daily WHERE date = ?`, [first.date]);
          else
            await sql.run(
              upsert(o.rows.length),
              o.rows.flatMap((r) => [r.campaign, r.date, OWNER[r.campaign]!, ...COLUMNS.map(() => r.v)]),
            );
        }
        const expected = await sql.all(
          `SELECT account_id, date, ${sums} FROM insights_campaign_daily GROUP BY account_id, date ORDER BY 1, 2`,
        );
        const actual = await sql.all(
          `SELECT account_id, date, ${sums} FROM insights_account_daily GROUP BY account_id, date
           HAVING ${COLUMNS.map((c) => `sum(${c}) != 0`).join(' OR ')} OR account_id || date IN
             (SELECT account_id || date FROM insights_campaign_daily) ORDER BY 1, 2`,
        );
        expect(actual).toEqual(expected);
      }),
      { numRuns: engine === 'sqlite' ? 150 : 60 },
    );
    await close();
  }, 60_000);
});
