import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openStore } from '../store/open';

const COLUMNS = ['spend_micros', 'impressions', 'clicks', 'conversions', 'revenue_micros', 'reach'] as const;

describe('account-day rollup', () => {
  it('equals the sum of campaign rows after any mix of inserts, upserts and deletes', () => {
    const store = openStore(mkdtempSync(join(tmpdir(), 'adlens-rollup-')));
    const db = store.db;
    db.exec(`
      INSERT INTO workspaces (id, name, plan, created_at) VALUES ('ws_A', 'A', 'agency', 'x');
      INSERT INTO platform_connections (id, workspace_id, base_url, api_version, mode, token_encrypted, created_at, updated_at)
        VALUES ('conn_A', 'ws_A', 'demo:', 'v25.0', 'test', x'00', 'x', 'x');
      INSERT INTO ad_accounts (id, workspace_id, connection_id, platform_account_id, mode, name, currency, timezone, status, connected_at)
        VALUES ('act_A', 'ws_A', 'conn_A', 'act_1', 'test', 'A', 'USD', 'UTC', 'active', 'x'),
               ('act_B', 'ws_A', 'conn_A', 'act_2', 'test', 'B', 'USD', 'UTC', 'active', 'x');
      INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective, buying_type, created_time, updated_time)
        VALUES ('camp_1', 'act_A', '1', 'c1', 'ACTIVE', 'ACTIVE', 'X', 'AUCTION', 'x', 'x'),
               ('camp_2', 'act_A', '2', 'c2', 'ACTIVE', 'ACTIVE', 'X', 'AUCTION', 'x', 'x'),
               ('camp_3', 'act_B', '3', 'c3', 'ACTIVE', 'ACTIVE', 'X', 'AUCTION', 'x', 'x');
    `);
    const upsert =
      db.prepare(`INSERT INTO insights_campaign_daily (campaign_id, date, account_id, ${COLUMNS.join(', ')})
      VALUES (@campaign, @date, @account, @v, @v, @v, @v, @v, @v)
      ON CONFLICT (campaign_id, date) DO UPDATE SET ${COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')}`);
    const remove = db.prepare(`DELETE FROM insights_campaign_daily WHERE campaign_id = ? AND date = ?`);
    const owner: Record<string, string> = { camp_1: 'act_A', camp_2: 'act_A', camp_3: 'act_B' };
    const op = fc.record({
      kind: fc.constantFrom('upsert', 'upsert', 'delete'),
      campaign: fc.constantFrom('camp_1', 'camp_2', 'camp_3'),
      date: fc.constantFrom('2026-01-01', '2026-01-02', '2026-01-03'),
      v: fc.integer({ min: 0, max: 1_000_000_000 }),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        db.exec('DELETE FROM insights_campaign_daily; DELETE FROM insights_account_daily;');
        for (const o of ops) {
          if (o.kind === 'delete') remove.run(o.campaign, o.date);
          else upsert.run({ campaign: o.campaign, date: o.date, account: owner[o.campaign], v: o.v });
        }
        const sums = COLUMNS.map((c) => `sum(${c})`).join(', ');
        const expected = db
          .prepare(
            `SELECT account_id, date, ${sums} FROM insights_campaign_daily GROUP BY account_id, date ORDER BY 1, 2`,
          )
          .raw()
          .all();
        const actual = db
          .prepare(
            `SELECT account_id, date, ${sums} FROM insights_account_daily GROUP BY account_id, date
            HAVING ${COLUMNS.map((c) => `sum(${c}) != 0`).join(' OR ')} OR account_id || date IN
              (SELECT account_id || date FROM insights_campaign_daily) ORDER BY 1, 2`,
          )
          .raw()
          .all();
        expect(actual).toEqual(expected);
      }),
      { numRuns: 150 },
    );
    store.close();
  });
});
