import {
  CampaignDetailQuery,
  CampaignDetailResponse,
  CampaignListQuery,
  CampaignListResponse,
  type CampaignDetail,
  type CampaignListItem,
} from '../../../shared/api/campaigns';
import { CampaignIdParam, DEFAULT_PAGE_SIZE, pagination } from '../../../shared/api/common';
import type { DiagnosticListItem, RiskLevel } from '../../../shared/api/diagnostics';
import { accountScope, resolveAccount, resolveCampaign, stmt, visibleAccounts } from '../../identity/access';
import { campaignDaily, campaignInsights, type CampaignInsights as StoreInsights } from '../../insights';
import { adSetsOf, adsOf, campaignBase, toInsights, windowOf, type CampaignRow } from '../campaign-views';
import { defineRoute, json } from '../route';

const SORT_SQL: Record<string, string> = {
  name: 'c.name ASC, c.id ASC',
  '-name': 'c.name DESC, c.id DESC',
  spend: 'spend_micros ASC, c.id ASC',
  '-spend': 'spend_micros DESC, c.id ASC',
  createdAt: 'c.created_time ASC, c.id ASC',
  '-createdAt': 'c.created_time DESC, c.id ASC',
  updatedAt: 'c.updated_time ASC, c.id ASC',
  '-updatedAt': 'c.updated_time DESC, c.id ASC',
};

interface ListRow extends CampaignRow {
  ad_set_count: number;
  ad_count: number;
  win_from: string;
  win_to: string;
}

export const campaignRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/campaigns',
    operationId: 'listCampaigns',
    cacheable: true,
    summary: 'List campaigns across connected accounts, with last-7-day insights',
    description:
      'Filters: account_id (service or platform ID), status (ACTIVE, PAUSED, DELETED, ARCHIVED). Sort: name (default), spend, createdAt, updatedAt; prefix "-" for descending. Spend for sorting and insights cover the last 7 days ending today in each account\'s timezone.',
    tag: 'Campaigns',
    counters: ['reads'],
    query: CampaignListQuery,
    response: { status: 200, name: 'CampaignList', schema: CampaignListResponse },
    errors: ['invalid_request', 'permission_error', 'not_found'],
    async handle({ app, ctx, query }) {
      const db = app.core.db;
      const now = app.core.clock.now();
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? DEFAULT_PAGE_SIZE;
      const accounts = query.account_id
        ? [resolveAccount(db, ctx, query.account_id)]
        : visibleAccounts(db, ctx);
      if (accounts.length === 0) return json([], 200, pagination(0, page, pageSize));
      // One insights window per account (its own "today"), joined in as a small VALUES table.
      const windows = accounts.map((a) => ({ id: a.id, ...windowOf('last_7d', now, a.timezone) }));
      const values = windows.map(() => '(?, ?, ?)').join(', ');
      const windowParams = windows.flatMap((w) => [w.id, w.from, w.to]);
      const scope = accountScope(ctx);
      const filters = [scope.sql];
      const filterParams: string[] = [...scope.params];
      if (query.status) {
        filters.push('c.status = ?');
        filterParams.push(query.status);
      }
      const sort = query.sort ?? 'name';
      const where = filters.join(' AND ');
      const from = `FROM campaigns c JOIN w ON w.account_id = c.account_id JOIN ad_accounts a ON a.id = c.account_id
        WHERE ${where}`;
      const withWindows = `WITH w(account_id, win_from, win_to) AS (VALUES ${values})`;
      const total = (
        stmt(db, `${withWindows} SELECT count(*) AS n ${from}`).get(...windowParams, ...filterParams) as {
          n: number;
        }
      ).n;
      const spendColumn = sort.endsWith('spend')
        ? `, (SELECT coalesce(sum(i.spend_micros), 0) FROM insights_campaign_daily i
             WHERE i.campaign_id = c.id AND i.date BETWEEN w.win_from AND w.win_to) AS spend_micros`
        : '';
      const sql = `${withWindows}
        SELECT c.*, a.currency, a.timezone, w.win_from, w.win_to,
          (SELECT count(*) FROM ad_sets s WHERE s.campaign_id = c.id) AS ad_set_count,
          (SELECT count(*) FROM ads d WHERE d.campaign_id = c.id) AS ad_count${spendColumn}
        ${from}
        ORDER BY ${SORT_SQL[sort]} LIMIT ? OFFSET ?`;
      const rows = stmt(db, sql).all(
        ...windowParams,
        ...filterParams,
        pageSize,
        (page - 1) * pageSize,
      ) as ListRow[];

      // Insights per window group (accounts in different timezones have different "today"s).
      const groups = new Map<string, string[]>();
      for (const row of rows) {
        const key = `${row.win_from}|${row.win_to}`;
        groups.set(key, [...(groups.get(key) ?? []), row.id]);
      }
      const insights = new Map<string, StoreInsights>();
      for (const [key, ids] of groups) {
        const [from, to] = key.split('|') as [string, string];
        for (const [id, m] of campaignInsights(db, ids, from, to)) insights.set(id, m);
      }
      const latest = await app.diagnostics.latestForCampaigns(rows.map((row) => row.id));
      const data: CampaignListItem[] = rows.map((row) => {
        const diag = latest.get(row.id);
        return {
          ...campaignBase(row),
          adSetCount: row.ad_set_count,
          adCount: row.ad_count,
          insights: toInsights(insights.get(row.id), 'last_7d'),
          latestDiagnostic: diag
            ? {
                id: diag.id,
                riskLevel: diag.riskLevel as RiskLevel | null,
                issuesDetected: diag.issuesDetected,
                completedAt: diag.completedAt,
              }
            : null,
        };
      });
      return json(data, 200, pagination(total, page, pageSize));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/campaigns/{id}',
    operationId: 'getCampaign',
    cacheable: true,
    summary: 'Get one campaign, optionally with ad sets, ads, diagnostics and insights',
    tag: 'Campaigns',
    counters: ['reads'],
    pathParams: { id: CampaignIdParam },
    query: CampaignDetailQuery,
    response: { status: 200, name: 'CampaignDetailResponse', schema: CampaignDetailResponse },
    errors: ['invalid_request', 'permission_error', 'not_found'],
    async handle({ app, ctx, params, query }) {
      const db = app.core.db;
      const visible = resolveCampaign(db, ctx, params.id as string);
      const row = db
        .prepare(
          `SELECT c.*, a.currency, a.timezone FROM campaigns c JOIN ad_accounts a ON a.id = c.account_id WHERE c.id = ?`,
        )
        .get(visible.id) as CampaignRow;
      const include = query.include ?? new Set();
      const detail: CampaignDetail = {
        ...campaignBase(row),
        specialAdCategories: JSON.parse(row.special_ad_categories || '[]') as string[],
      };
      if (include.has('insights')) {
        const range = query.insightsDateRange ?? 'last_7d';
        const first = (
          db
            .prepare(`SELECT min(date) AS d FROM insights_campaign_daily WHERE campaign_id = ?`)
            .get(row.id) as {
            d: string | null;
          }
        ).d;
        const window = windowOf(range, app.core.clock.now(), row.timezone, first ?? undefined);
        const totals = campaignInsights(db, [row.id], window.from, window.to).get(row.id);
        detail.insights = {
          ...toInsights(totals, range),
          daily: campaignDaily(db, row.id, window.from, window.to).map((day) => ({
            date: day.date,
            spend: day.spend,
            conversions: day.conversions,
            cpa: day.cpa,
          })),
        };
      }
      if (include.has('adSets')) detail.adSets = adSetsOf(db, row.id);
      if (include.has('ads')) detail.ads = adsOf(db, row.id);
      if (include.has('diagnostics')) {
        const account = resolveAccount(db, ctx, row.account_id);
        const list = await app.diagnostics.list(ctx, {
          accountIds: [account.id],
          campaignId: row.id,
          page: 1,
          pageSize: 20,
        });
        detail.diagnostics = list.items as DiagnosticListItem[];
      }
      return json(detail);
    },
  }),
];
