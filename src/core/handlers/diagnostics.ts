// Diagnostics screens: list with filters, detail with the feedback already given, run, feedback.
import { addDays, dateInZone } from '../clock';
import { AppError } from '../errors';
import { resolveAccount, resolveCampaign, visibleAccounts } from '../identity/access';
import type { DiagnosticDetail, DiagnosticListItem, Page } from '../../shared/ipc/types';
import type {
  DiagnosticCreated,
  DiagnosticDetail as ApiDiagnosticDetail,
} from '../../shared/api/diagnostics';
import type { HandlerContext, HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';

function feedbackOf(
  env: HandlerEnv,
  ctx: HandlerContext,
  diagnosticId: string,
): DiagnosticDetail['feedback'] {
  const rows = env.app.core.db
    .prepare(
      `SELECT recommendation_id, feedback FROM recommendation_feedback WHERE diagnostic_id = ? AND user_id = ?`,
    )
    .all(diagnosticId, ctx.userId) as Array<{ recommendation_id: string; feedback: 'applied' | 'dismissed' }>;
  return Object.fromEntries(rows.map((r) => [r.recommendation_id, r.feedback]));
}

async function requireDiagnostic(
  env: HandlerEnv,
  ctx: HandlerContext,
  id: string,
): Promise<ApiDiagnosticDetail> {
  const detail = (await env.app.diagnostics.get(ctx, id)) as ApiDiagnosticDetail | undefined;
  if (!detail) throw new AppError('not_found', `Diagnostic ${id} was not found.`);
  return detail;
}

export function diagnosticHandlers(
  env: HandlerEnv,
): Pick<HandlerImpls, 'diagnostics.list' | 'diagnostics.get' | 'diagnostics.run' | 'diagnostics.feedback'> {
  const { db, clock } = env.app.core;
  return {
    'diagnostics.list': async (ctx, args): Promise<Page<DiagnosticListItem>> => {
      const accountIds = args.accountId
        ? [resolveAccount(db, ctx, args.accountId).id]
        : visibleAccounts(db, ctx).map((a) => a.id);
      if (args.campaignId) resolveCampaign(db, ctx, args.campaignId);
      const result = await env.app.diagnostics.list(ctx, {
        accountIds,
        page: args.page,
        pageSize: args.pageSize,
        ...(args.riskLevel ? { riskLevel: args.riskLevel } : {}),
        ...(args.status ? { status: args.status } : {}),
        ...(args.campaignId ? { campaignId: args.campaignId } : {}),
      });
      return {
        items: result.items as DiagnosticListItem[],
        total: result.total,
        page: args.page,
        pageSize: args.pageSize,
      };
    },
    'diagnostics.get': async (ctx, args): Promise<DiagnosticDetail> => {
      const detail = await requireDiagnostic(env, ctx, args.id);
      const target = detail.campaignId
        ? (db.prepare(`SELECT target_cpa_micros AS t FROM campaigns WHERE id = ?`).get(detail.campaignId) as
            { t: number | null } | undefined)
        : undefined;
      return {
        ...detail,
        feedback: feedbackOf(env, ctx, args.id),
        campaignTargetCpa: target?.t == null ? null : target.t / 1_000_000,
      };
    },
    'diagnostics.run': async (ctx, args) => {
      const account = resolveAccount(db, ctx, args.accountId);
      if (args.campaignId) {
        const campaign = resolveCampaign(db, ctx, args.campaignId);
        if (campaign.accountId !== account.id) {
          throw new AppError('invalid_request', 'That campaign belongs to another ad account.');
        }
      }
      const today = dateInZone(clock.now(), account.timezone);
      const dateTo = args.dateTo ?? today;
      const dateFrom = args.dateFrom ?? addDays(dateTo, -6);
      return (await env.app.diagnostics.create(ctx, {
        accountId: account.id,
        campaignId: args.campaignId,
        dateFrom,
        dateTo,
      })) as DiagnosticCreated;
    },
    'diagnostics.feedback': async (ctx, args) => {
      await requireDiagnostic(env, ctx, args.diagnosticId);
      env.app.diagnostics.feedback(ctx, args);
      return { recommendationId: args.recommendationId, feedback: args.feedback };
    },
  };
}
