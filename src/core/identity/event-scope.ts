// Which core events a request context may receive on a live stream: its workspace's, and with a
// test or live key only those about accounts of that mode (diagnostics and reports are looked up).
import type { CoreEventMap, CoreEventName } from '../events';
import type { Db } from '../store/open';
import { accountMode, type RequestContext } from './access';

/** The account an event is about, for the mode check (diagnostics and reports are looked up). */
function accountOf(db: Db, name: CoreEventName, payload: CoreEventMap[CoreEventName]): string | undefined {
  if ('accountId' in payload) return payload.accountId ?? undefined;
  if (name === 'diagnostic.changed' && 'diagnosticId' in payload) {
    const row = db.prepare(`SELECT account_id FROM diagnostics WHERE id = ?`).get(payload.diagnosticId) as
      { account_id: string } | undefined;
    return row?.account_id;
  }
  if (name === 'report.changed' && 'reportId' in payload) {
    const row = db.prepare(`SELECT account_id FROM reports WHERE id = ?`).get(payload.reportId) as
      { account_id: string } | undefined;
    return row?.account_id;
  }
  return undefined;
}

export function visibleEvent(
  db: Db,
  ctx: RequestContext,
  name: CoreEventName,
  payload: CoreEventMap[CoreEventName],
): boolean {
  if (payload.workspaceId !== ctx.workspaceId) return false;
  if (ctx.mode === 'all') return true;
  const accountId = accountOf(db, name, payload);
  return accountId !== undefined && accountMode(db, accountId) === ctx.mode;
}
