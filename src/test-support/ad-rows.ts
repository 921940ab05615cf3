// An ad account and its campaigns written through the store boundary (the stores that would write them
// are still SQLite-only): the rows a diagnostics or issues store test needs beneath its own, on
// either engine.
import type { Sql } from '../core/store/sql';

const SEEDED_AT = '2026-03-01T00:00:00.000Z';

/** A connection, an account of `workspaceId` and campaigns (IDs and names) of it. */
export async function seedAccountRows(
  sql: Sql,
  workspaceId: string,
  account: { id: string; name: string; timezone?: string },
  campaigns: ReadonlyArray<{ id: string; name: string; resultType?: string | null }> = [],
): Promise<void> {
  const connectionId = `conn_${account.id}`;
  await sql.run(
    `INSERT INTO platform_connections (id, workspace_id, base_url, api_version, mode, token_encrypted, created_at, updated_at)
     VALUES (?, ?, 'http://127.0.0.1', 'v21.0', 'test', ?, ?, ?)`,
    [connectionId, workspaceId, Buffer.from('sealed'), SEEDED_AT, SEEDED_AT],
  );
  await sql.run(
    `INSERT INTO ad_accounts (id, workspace_id, connection_id, platform_account_id, mode, name, currency, timezone,
       status, connected_at)
     VALUES (?, ?, ?, ?, 'test', ?, 'USD', ?, 'active', ?)`,
    [
      account.id,
      workspaceId,
      connectionId,
      `act_${account.id}`,
      account.name,
      account.timezone ?? 'UTC',
      SEEDED_AT,
    ],
  );
  for (const c of campaigns)
    await sql.run(
      `INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective,
         buying_type, created_time, updated_time, result_type)
       VALUES (?, ?, ?, ?, 'ACTIVE', 'ACTIVE', 'OUTCOME_SALES', 'AUCTION', ?, ?, ?)`,
      [c.id, account.id, `pc_${c.id}`, c.name, SEEDED_AT, SEEDED_AT, c.resultType ?? null],
    );
}
