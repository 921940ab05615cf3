// The access rules on both engines behind the store boundary: a workspace sees its own accounts (of
// the context's mode), an account connected only elsewhere is a permission error, an unknown one and
// a foreign campaign are not found, and platform IDs resolve like service IDs.
import { afterAll, describe, expect, it } from 'vitest';
import { engineStores, ENGINES, seedWorkspaceRows } from '../../test-support/engines';
import type { Sql } from '../store/sql';
import {
  canSeeDiagnostic,
  resolveAccount,
  resolveCampaign,
  visibleAccounts,
  type RequestContext,
} from './access';

const engines = engineStores();
afterAll(() => engines.stop(), 60_000);

const AT = '2026-11-28T00:00:00Z';

async function seed(sql: Sql): Promise<void> {
  for (const ws of ['ws_agency', 'ws_other']) {
    await seedWorkspaceRows(sql, ws);
    await sql.run(
      `INSERT INTO platform_connections (id, workspace_id, base_url, api_version, mode, token_encrypted, created_at, updated_at)
       VALUES (?, ?, 'https://graph.facebook.com', 'v23.0', 'live', ?, ?, ?)`,
      [`conn_${ws}`, ws, Buffer.from('sealed'), AT, AT],
    );
  }
  const account = (id: string, ws: string, platformId: string, mode: 'test' | 'live') =>
    sql.run(
      `INSERT INTO ad_accounts (id, workspace_id, connection_id, platform_account_id, mode, name, currency, timezone, status, connected_at)
       VALUES (?, ?, ?, ?, ?, ?, 'EUR', 'Europe/Paris', 'active', ?)`,
      [id, ws, `conn_${ws}`, platformId, mode, `${id} name`, AT],
    );
  await account('acc_live', 'ws_agency', 'act_100', 'live');
  await account('acc_test', 'ws_agency', 'act_200', 'test');
  await account('acc_foreign', 'ws_other', 'act_300', 'live');
  for (const [id, accountId] of [
    ['cmp_own', 'acc_live'],
    ['cmp_foreign', 'acc_foreign'],
  ] as const) {
    await sql.run(
      `INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective, buying_type, created_time, updated_time)
       VALUES (?, ?, ?, ?, 'ACTIVE', 'ACTIVE', 'OUTCOME_SALES', 'AUCTION', ?, ?)`,
      [id, accountId, `p_${id}`, id, AT, AT],
    );
  }
}

const ctx = (mode: RequestContext['mode']): RequestContext => ({
  workspaceId: 'ws_agency',
  plan: 'agency',
  userId: null,
  keyId: null,
  mode,
});

describe.each(ENGINES)('access rules on %s', (engine) => {
  it('scopes accounts and campaigns to the workspace and the mode', async () => {
    const { sql, close } = await engines.open(engine);
    await seed(sql);
    expect((await visibleAccounts(sql, ctx('all'))).map((a) => a.id)).toEqual(['acc_live', 'acc_test']);
    expect((await visibleAccounts(sql, ctx('test'))).map((a) => a.id)).toEqual(['acc_test']);
    expect((await resolveAccount(sql, ctx('live'), 'act_100')).id).toBe('acc_live');
    await expect(resolveAccount(sql, ctx('live'), 'acc_test')).rejects.toMatchObject({ type: 'not_found' });
    await expect(resolveAccount(sql, ctx('all'), 'act_300')).rejects.toMatchObject({
      type: 'permission_error',
    });
    await expect(resolveAccount(sql, ctx('all'), 'act_999')).rejects.toMatchObject({ type: 'not_found' });
    expect(await resolveCampaign(sql, ctx('all'), 'cmp_own')).toEqual({
      id: 'cmp_own',
      accountId: 'acc_live',
      name: 'cmp_own',
      timezone: 'Europe/Paris',
      currency: 'EUR',
      revision: expect.any(Number),
    });
    await expect(resolveCampaign(sql, ctx('all'), 'cmp_foreign')).rejects.toMatchObject({
      type: 'not_found',
    });
    expect(await canSeeDiagnostic(sql, ctx('all'), 'diag_none')).toBe(false);
    await close();
  });
});
