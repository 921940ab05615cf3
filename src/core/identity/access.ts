// Who may see what. A request context names a workspace and a mode; every lookup of an ad account,
// campaign, diagnostic or report made on behalf of a request goes through here, so that one workspace
// never sees another's data and a test key never sees live-mode accounts (nor a live key test ones).
import { AppError } from '../errors';
import { isPlatformAccountId } from '../ids';
import { inAccounts } from '../store/dialect';
import { keptPlan, type Sql } from '../store/sql';

export type Plan = 'starter' | 'pro' | 'agency' | 'trial';

export interface RequestContext {
  workspaceId: string;
  plan: Plan;
  userId: string | null;
  keyId: string | null;
  /** API keys: test or live; the desktop window and the dashboard: all. */
  mode: 'test' | 'live' | 'all';
}

/** Plans with programmatic API access (DESIGN §4: trial is demo-first and may use the API). */
export const API_PLANS: readonly Plan[] = ['agency', 'trial'];
/** Plans allowed to request white-label reports. */
export const WHITE_LABEL_PLANS: readonly Plan[] = ['agency'];

export interface VisibleAccount {
  id: string;
  platformAccountId: string;
  name: string;
  mode: 'test' | 'live';
  currency: string;
  timezone: string;
  connectionStatus: 'active' | 'disconnected' | 'token_expired';
  /** The revision of its synced figures (insights/account-figures.ts), as read with it. */
  revision: number;
}

const ACCOUNT_COLUMNS = `a.id, a.platform_account_id AS platformAccountId, a.name, a.mode, a.currency,
  a.timezone, a.connection_status AS connectionStatus, a.revision`;

/** SQL condition (on alias `a` = ad_accounts) and its parameters for what the context may see. */
export function accountScope(ctx: RequestContext): { sql: string; params: string[] } {
  return ctx.mode === 'all'
    ? { sql: `a.workspace_id = ?`, params: [ctx.workspaceId] }
    : { sql: `a.workspace_id = ? AND a.mode = ?`, params: [ctx.workspaceId, ctx.mode] };
}

/**
 * The opposite of accountScope: the accounts the context may not see (another workspace's, or of the
 * other mode), as ranges the workspace index answers (both columns are NOT NULL).
 */
export function outsideAccountScope(ctx: RequestContext): { sql: string; params: string[] } {
  const otherWorkspace = `a.workspace_id < ? OR a.workspace_id > ?`;
  return ctx.mode === 'all'
    ? { sql: otherWorkspace, params: [ctx.workspaceId, ctx.workspaceId] }
    : {
        sql: `${otherWorkspace} OR (a.workspace_id = ? AND a.mode <> ?)`,
        params: [ctx.workspaceId, ctx.workspaceId, ctx.workspaceId, ctx.mode],
      };
}

/** The accounts a list reads: some named ones of the workspace, or every one the request may see. */
export type AccountSelection = { ids: readonly string[] } | { visibleTo: RequestContext };

/**
 * A list's rows of the selected accounts (`alias` names a table with `workspace_id` and `account_id`):
 * a join to add after `FROM`, and WHERE terms with their parameters. Every visible account is the
 * workspace's rows, kept to the request's mode by their account: not a list of the workspace's IDs,
 * which PostgreSQL plans element by element (1.3 ms a read at 500 accounts; plans are made per call).
 * `keyed`: no list of several IDs among the terms, so a statement of them may keep its plan
 * (`keptPlan`); a list is planned with its length.
 */
export function rowsOfAccounts(
  sql: Sql,
  alias: string,
  workspaceId: string,
  selection: AccountSelection,
  /** An alias of `ad_accounts` the statement already joins on `alias.account_id`. */
  joinedAccount?: string,
): { join: string; terms: string[]; params: string[]; keyed: boolean } {
  if ('ids' in selection)
    return {
      join: '',
      ...inAccounts(sql, alias, workspaceId, selection.ids),
      keyed: selection.ids.length === 1,
    };
  const { mode } = selection.visibleTo;
  const terms = [`${alias}.workspace_id = ?`];
  if (mode === 'all') return { join: '', terms, params: [selection.visibleTo.workspaceId], keyed: true };
  const account = joinedAccount ?? `${alias}_account`;
  return {
    join: joinedAccount ? '' : `JOIN ad_accounts ${account} ON ${account}.id = ${alias}.account_id`,
    terms: [...terms, `${account}.mode = ?`],
    params: [selection.visibleTo.workspaceId, mode],
    keyed: true,
  };
}

export function visibleAccounts(sql: Sql, ctx: RequestContext): Promise<VisibleAccount[]> {
  const scope = accountScope(ctx);
  return sql.all<VisibleAccount>(
    keptPlan(`SELECT ${ACCOUNT_COLUMNS} FROM ad_accounts a WHERE ${scope.sql} ORDER BY a.id`),
    scope.params,
  );
}

/**
 * Resolves an `account_id` (service ID or platform ID) inside the context's workspace.
 * In the workspace but of the other mode → 404 (a test key does not know live accounts exist);
 * connected only in another workspace → 403 permission_error; unknown → 404.
 */
export async function resolveAccount(sql: Sql, ctx: RequestContext, idText: string): Promise<VisibleAccount> {
  const column = isPlatformAccountId(idText) ? 'platform_account_id' : 'id';
  const own = await sql.get<VisibleAccount>(
    keptPlan(`SELECT ${ACCOUNT_COLUMNS} FROM ad_accounts a WHERE a.workspace_id = ? AND a.${column} = ?`),
    [ctx.workspaceId, idText],
  );
  if (own) {
    if (ctx.mode !== 'all' && own.mode !== ctx.mode) {
      throw new AppError('not_found', `Ad account ${idText} was not found.`);
    }
    return own;
  }
  const elsewhere = await sql.get(`SELECT 1 FROM ad_accounts WHERE ${column} = ? LIMIT 1`, [idText]);
  if (elsewhere) {
    throw new AppError('permission_error', `Ad account ${idText} belongs to another workspace.`);
  }
  throw new AppError('not_found', `Ad account ${idText} was not found.`);
}

export interface VisibleCampaign {
  id: string;
  accountId: string;
  name: string;
  timezone: string;
  currency: string;
  /** Its account's revision (insights/account-figures.ts), as read with it. */
  revision: number;
}

/** A campaign the context may see, or 404 (missing and foreign campaigns look the same). */
export async function resolveCampaign(
  sql: Sql,
  ctx: RequestContext,
  campaignId: string,
): Promise<VisibleCampaign> {
  const scope = accountScope(ctx);
  const row = await sql.get<VisibleCampaign>(
    keptPlan(`SELECT c.id, c.account_id AS accountId, c.name, a.timezone, a.currency, a.revision
       FROM campaigns c JOIN ad_accounts a ON a.id = c.account_id
       WHERE c.id = ? AND ${scope.sql}`),
    [campaignId, ...scope.params],
  );
  if (!row) throw new AppError('not_found', `Campaign ${campaignId} was not found.`);
  return row;
}

/** True when the diagnostic exists, is in the workspace, and its account is of the context's mode. */
export async function canSeeDiagnostic(
  sql: Sql,
  ctx: RequestContext,
  diagnosticId: string,
): Promise<boolean> {
  const scope = accountScope(ctx);
  const row = await sql.get(
    keptPlan(`SELECT 1 FROM diagnostics d JOIN ad_accounts a ON a.id = d.account_id
       WHERE d.id = ? AND d.workspace_id = ? AND ${scope.sql}`),
    [diagnosticId, ctx.workspaceId, ...scope.params],
  );
  return row !== undefined;
}

export async function canSeeReport(sql: Sql, ctx: RequestContext, reportId: string): Promise<boolean> {
  const scope = accountScope(ctx);
  const row = await sql.get(
    `SELECT 1 FROM reports r JOIN ad_accounts a ON a.id = r.account_id
       WHERE r.id = ? AND r.workspace_id = ? AND ${scope.sql}`,
    [reportId, ctx.workspaceId, ...scope.params],
  );
  return row !== undefined;
}

/** The mode of an account by its service ID (for filtering events), or undefined. */
export async function accountMode(sql: Sql, accountId: string): Promise<'test' | 'live' | undefined> {
  const row = await sql.get<{ mode: 'test' | 'live' }>(`SELECT mode FROM ad_accounts WHERE id = ?`, [
    accountId,
  ]);
  return row?.mode;
}

/** The workspace a diagnostic belongs to (for an administrator's command naming only the diagnostic). */
export async function workspaceOfDiagnostic(sql: Sql, diagnosticId: string): Promise<string | undefined> {
  const row = await sql.get<{ workspace_id: string }>(`SELECT workspace_id FROM diagnostics WHERE id = ?`, [
    diagnosticId,
  ]);
  return row?.workspace_id;
}
