import { z } from 'zod';
import {
  Account,
  AccountListQuery,
  AccountListResponse,
  AccountResponse,
  SyncStartedResponse,
  type SyncStarted,
} from '../../../shared/api/accounts';
import { AccountIdParam, DEFAULT_PAGE_SIZE, pagination } from '../../../shared/api/common';
import { addDays, dateInZone } from '../../clock';
import { AppError, isAppError } from '../../errors';
import { accountScope, resolveAccount, stmt, type RequestContext } from '../../identity/access';
import { microsToAmount } from '../../money';
import type { Db } from '../../store/open';
import { defineRoute, json } from '../route';

interface AccountRow {
  id: string;
  platform_account_id: string;
  name: string;
  currency: string;
  timezone: string;
  status: Account['status'];
  connection_status: Account['connectionStatus'];
  business_id: string;
  business_name: string;
  permissions: string;
  last_synced_at: string | null;
  connected_at: string;
  connected_by: string | null;
  campaign_count: number;
  active_campaign_count: number;
}

const SELECT_ACCOUNT = `SELECT a.*,
  (SELECT count(*) FROM campaigns c WHERE c.account_id = a.id) AS campaign_count,
  (SELECT count(*) FROM campaigns c WHERE c.account_id = a.id AND c.effective_status = 'ACTIVE') AS active_campaign_count
  FROM ad_accounts a`;

function permissionsOf(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

function toAccount(db: Db, now: Date, row: AccountRow): Account {
  const today = dateInZone(now, row.timezone);
  const spend = stmt(
    db,
    `SELECT coalesce(sum(spend_micros), 0) AS micros FROM insights_campaign_daily
       WHERE account_id = ? AND date BETWEEN ? AND ?`,
  ).get(row.id, addDays(today, -29), today) as { micros: number };
  return {
    id: row.id,
    platformAccountId: row.platform_account_id,
    name: row.name,
    currency: row.currency,
    timezone: row.timezone,
    status: row.status,
    connectionStatus: row.connection_status,
    businessName: row.business_name,
    businessId: row.business_id,
    permissions: permissionsOf(row.permissions),
    lastSyncedAt: row.last_synced_at,
    campaignCount: row.campaign_count,
    activeCampaignCount: row.active_campaign_count,
    totalSpendLast30d: microsToAmount(spend.micros),
    connectedAt: row.connected_at,
    connectedBy: row.connected_by,
  };
}

export function getAccount(db: Db, now: Date, ctx: RequestContext, idText: string): Account {
  const visible = resolveAccount(db, ctx, idText);
  const row = db.prepare(`${SELECT_ACCOUNT} WHERE a.id = ?`).get(visible.id) as AccountRow;
  return toAccount(db, now, row);
}

const accountPath = { id: AccountIdParam };

export const accountRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/accounts',
    operationId: 'listAccounts',
    cacheable: true,
    summary: 'List connected ad accounts of the workspace',
    tag: 'Accounts',
    counters: ['reads'],
    query: AccountListQuery,
    response: { status: 200, name: 'AccountList', schema: AccountListResponse },
    errors: ['invalid_request'],
    handle({ app, ctx, query }) {
      const db = app.core.db;
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? DEFAULT_PAGE_SIZE;
      const scope = accountScope(ctx);
      const where = query.status ? `${scope.sql} AND a.connection_status = ?` : scope.sql;
      const params = query.status ? [...scope.params, query.status] : scope.params;
      const total = (
        stmt(db, `SELECT count(*) AS n FROM ad_accounts a WHERE ${where}`).get(...params) as { n: number }
      ).n;
      const rows = stmt(db, `${SELECT_ACCOUNT} WHERE ${where} ORDER BY a.name, a.id LIMIT ? OFFSET ?`).all(
        ...params,
        pageSize,
        (page - 1) * pageSize,
      ) as AccountRow[];
      const now = app.core.clock.now();
      return json(
        rows.map((row) => toAccount(db, now, row)),
        200,
        pagination(total, page, pageSize),
      );
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/accounts/{id}',
    operationId: 'getAccount',
    cacheable: true,
    summary: 'Get one ad account (service ID or platform ID)',
    tag: 'Accounts',
    counters: ['reads'],
    pathParams: accountPath,
    response: { status: 200, name: 'AccountResponse', schema: AccountResponse },
    errors: ['invalid_request', 'permission_error', 'not_found'],
    handle({ app, ctx, params }) {
      return json(getAccount(app.core.db, app.core.clock.now(), ctx, params.id as string));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/accounts/{id}/sync',
    operationId: 'syncAccount',
    summary: 'Start a sync of the account (idempotent while one runs)',
    description:
      'Returns 202 with the running sync. When a sync of the account is already running, returns that sync instead of starting another. An account whose connection is not active (token_expired, disconnected) cannot sync: 400 invalid_request; re-authenticate it in the dashboard.',
    tag: 'Accounts',
    counters: ['writes'],
    pathParams: accountPath,
    body: z.strictObject({}).optional(),
    response: { status: 202, name: 'SyncStartedResponse', schema: SyncStartedResponse },
    errors: ['invalid_request', 'permission_error', 'not_found'],
    handle({ app, ctx, params }) {
      const db = app.core.db;
      const account = resolveAccount(db, ctx, params.id as string);
      if (account.connectionStatus !== 'active') {
        throw new AppError(
          'invalid_request',
          `Ad account ${account.id} cannot sync: its connection is ${account.connectionStatus}. Re-authenticate it in the dashboard.`,
        );
      }
      const running = (): SyncStarted | undefined => {
        const row = db
          .prepare(`SELECT started_at FROM sync_runs WHERE account_id = ? AND status = 'running'`)
          .get(account.id) as { started_at: string } | undefined;
        return row ? { accountId: account.id, status: 'running', startedAt: row.started_at } : undefined;
      };
      const already = running();
      if (already) return json(already, 202);
      try {
        const started = app.sync.startSync(account.id);
        // The run's outcome is reported through events and the account's lastSyncedAt, not here.
        started.done.catch(() => {});
        return json({ accountId: account.id, status: 'running', startedAt: started.startedAt }, 202);
      } catch (error) {
        if (isAppError(error) && error.type === 'sync_in_progress') {
          const now = running();
          if (now) return json(now, 202);
        }
        throw error;
      }
    },
  }),
];
