// /{object}/insights (sync), POST /{object}/insights (async job), /{report_run_id} and its rows.

import { GraphError, invalidParameter, tooMuchData } from '../errors';
import { InsightsRows } from '../insights';
import { parseInsightsQuery, type Scope } from '../insights-query';
import { parseLimit } from '../paging';
import { dateOfDay } from '../time';
import type { WorldNode } from '../world/types';
import { linkFor, param, type RouteContext, type RouteResult } from './context';
import { accountOf } from './objects';

function scopeOf(n: WorldNode): Scope {
  const account = accountOf(n);
  switch (n.kind) {
    case 'account':
      return { kind: 'account', account };
    case 'campaign':
      return { kind: 'campaign', account, campaign: n.campaign };
    case 'adset':
      return { kind: 'adset', account, adSet: n.adSet };
    case 'ad':
      return { kind: 'ad', account, ad: n.ad };
  }
}

function insightsHeaders(ctx: RouteContext, accountId: string): Record<string, string> {
  const usage = ctx.state.usage.get(accountId);
  const pct = Math.min(90, Math.floor((usage?.insights ?? 0) / 20));
  return {
    'x-fb-ads-insights-throttle': JSON.stringify({
      app_id_util_pct: 0,
      acc_id_util_pct: pct,
      ads_api_access_tier: 'development_access',
    }),
  };
}

export function syncInsights(ctx: RouteContext, n: WorldNode): RouteResult {
  const scope = scopeOf(n);
  ctx.usage = { accountId: scope.account.accountId, kind: 'insights' };
  const query = parseInsightsQuery(ctx.params, scope, ctx.world);
  const rows = new InsightsRows(ctx.model, scope, query);
  // Meta refuses synchronous reads that are too big ("data per call limit"), asking for async jobs.
  if (rows.maxRows > ctx.state.syncInsightsRowLimit) throw tooMuchData();
  const limit = parseLimit(param(ctx, 'limit'));
  const page = rows.page({ limit, after: param(ctx, 'after'), before: param(ctx, 'before') }, linkFor(ctx));
  return { body: page, headers: insightsHeaders(ctx, scope.account.accountId) };
}

export function startAsyncInsights(ctx: RouteContext, n: WorldNode): RouteResult {
  const scope = scopeOf(n);
  ctx.usage = { accountId: scope.account.accountId, kind: 'insights' };
  const query = parseInsightsQuery(ctx.params, scope, ctx.world);
  const id = ctx.state.newJobId();
  const failed = ctx.state.failJobs > 0;
  if (failed) ctx.state.failJobs--;
  ctx.state.jobs.set(id, { id, scope, query, polls: 0, failed, createdAt: Math.floor(Date.now() / 1000) });
  return { body: { report_run_id: id } };
}

export function isJob(ctx: RouteContext, id: string): boolean {
  return ctx.state.jobs.has(id);
}

function job(ctx: RouteContext, id: string) {
  const found = ctx.state.jobs.get(id);
  if (!found) throw invalidParameter(`Unknown report run ${id}`);
  ctx.usage = { accountId: found.scope.account.accountId, kind: 'insights' };
  return found;
}

export function jobStatus(ctx: RouteContext, id: string): RouteResult {
  const j = job(ctx, id);
  j.polls++;
  const need = ctx.state.asyncPolls;
  const done = j.polls > need || need === 0;
  let status = 'Job Completed';
  let percent = 100;
  if (!done) {
    status = j.polls === 1 ? 'Job Started' : 'Job Running';
    percent = Math.floor((100 * j.polls) / (need + 1));
  } else if (j.failed) {
    status = 'Job Failed';
    percent = Math.floor((100 * need) / (need + 1));
  }
  const full: Record<string, unknown> = {
    id: j.id,
    report_run_id: j.id,
    account_id: j.scope.account.accountId,
    async_status: status,
    async_percent_completion: percent,
    date_start: dateOfDay(j.query.since),
    date_stop: dateOfDay(j.query.until),
    time_ref: j.createdAt,
    time_completed: done && !j.failed ? j.createdAt + 1 : 0,
    is_running: !done,
    emails: [],
    friendly_name: `Demo report ${j.id}`,
    schedule_id: '0',
  };
  const fields = param(ctx, 'fields')
    ?.split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (!fields) return { body: full };
  const picked: Record<string, unknown> = {};
  for (const f of fields) if (f in full) picked[f] = full[f];
  picked.id = j.id;
  return { body: picked };
}

export function jobInsights(ctx: RouteContext, id: string): RouteResult {
  const j = job(ctx, id);
  if (j.failed) throw new GraphError(400, -2, 'Report Failed', 2490547, 'OAuthException', true);
  if (j.polls <= ctx.state.asyncPolls && ctx.state.asyncPolls > 0) {
    throw new GraphError(400, 2601, 'Error accessing adreport job: the report is not ready yet.', 1815107);
  }
  const rows = new InsightsRows(ctx.model, j.scope, j.query);
  const limit = parseLimit(param(ctx, 'limit'));
  const page = rows.page({ limit, after: param(ctx, 'after'), before: param(ctx, 'before') }, linkFor(ctx));
  return { body: page, headers: insightsHeaders(ctx, j.scope.account.accountId) };
}
