// Which core events a request context may receive on a live stream: its workspace's, and with a
// test or live key only those about accounts of that mode (diagnostics and reports are looked up).
import type { CoreEventMap, CoreEventName } from '../events';
import type { Sql } from '../store/sql';
import { accountMode, type RequestContext } from './access';

/** The account an event is about, for the mode check (diagnostics and reports are looked up). */
async function accountOf(
  sql: Sql,
  name: CoreEventName,
  payload: CoreEventMap[CoreEventName],
): Promise<string | undefined> {
  if ('accountId' in payload) return payload.accountId ?? undefined;
  if (name === 'diagnostic.changed' && 'diagnosticId' in payload) {
    const row = (await sql.get(`SELECT account_id FROM diagnostics WHERE id = ?`, [payload.diagnosticId])) as
      { account_id: string } | undefined;
    return row?.account_id;
  }
  if (name === 'report.changed' && 'reportId' in payload) {
    const row = (await sql.get(`SELECT account_id FROM reports WHERE id = ?`, [payload.reportId])) as
      { account_id: string } | undefined;
    return row?.account_id;
  }
  return undefined;
}

export async function visibleEvent(
  sql: Sql,
  ctx: RequestContext,
  name: CoreEventName,
  payload: CoreEventMap[CoreEventName],
): Promise<boolean> {
  if (payload.workspaceId !== ctx.workspaceId) return false;
  if (ctx.mode === 'all') return true;
  const accountId = await accountOf(sql, name, payload);
  return accountId !== undefined && (await accountMode(sql, accountId)) === ctx.mode;
}
