// Diagnostics: list, read, run and give feedback, the same for every transport. One default window
// (the spec's: date_start 7 days before today, date_end today, in the account's own time zone), one
// rule for a campaign of another account (404), one visibility check for a diagnostic.
import type { AppServices } from '../app-services';
import { dateInZone } from '../clock';
import { AppError } from '../errors';
import {
  canSeeDiagnostic,
  resolveAccount,
  resolveCampaign,
  type AccountSelection,
  type RequestContext,
} from '../identity/access';
import { targetCpaMicros } from '../campaigns/store';
import { microsToAmount } from '../money';
import { checkFilterRange, diagnosticWindow } from '../windows';
import type {
  DiagnosticCreated,
  DiagnosticDetail,
  DiagnosticListItem,
  RiskLevel,
} from '../../shared/api/diagnostics';
import type { DiagnosticDetail as ScreenDetail } from '../../shared/ipc/types';
import type {
  DiagnosticChanges,
  DiagnosticHistory,
  EvidenceSeries,
} from '../../shared/api/diagnostic-history';
import { feedbackGiven } from './andromeda';
import { compareDiagnostics, evidenceSeries, historyPoints } from './history';
import { completedDiagnostics, previousDiagnosticId } from './history-store';

/** How many past diagnostics a history shows, picked from how many of the newest (historyPoints). */
const HISTORY_LIMIT = 50;
const HISTORY_READ = 500;
import type { Profile } from './types';

export interface RunInput {
  /** The account (service or platform ID); optional when the campaign names it. */
  accountId?: string | undefined;
  campaignId?: string | null | undefined;
  dateStart?: string | undefined;
  dateEnd?: string | undefined;
}

export interface DiagnosticFilter {
  accountId?: string | undefined;
  campaignId?: string | undefined;
  riskLevel?: RiskLevel | undefined;
  status?: 'pending' | 'running' | 'completed' | 'failed' | undefined;
  dateStart?: string | undefined;
  dateEnd?: string | undefined;
  page: number;
  pageSize: number;
}

export function diagnosticUseCases(services: AppServices) {
  const { core, diagnostics } = services;
  const { sql, clock } = core;

  /** Account, campaign (of that account) and window of a diagnostic to run. */
  async function target(ctx: RequestContext, input: RunInput) {
    const campaign = input.campaignId ? await resolveCampaign(sql, ctx, input.campaignId) : undefined;
    const accountRef = input.accountId ?? campaign?.accountId;
    if (!accountRef) throw new AppError('invalid_request', 'Name the account (or a campaign) to diagnose.');
    const account = await resolveAccount(sql, ctx, accountRef);
    let campaignId: string | null = null;
    if (campaign) {
      if (campaign.accountId !== account.id) {
        throw new AppError(
          'not_found',
          `Campaign ${campaign.id} was not found in account ${input.accountId}.`,
        );
      }
      campaignId = campaign.id;
    }
    const today = dateInZone(clock.now(), account.timezone);
    const window = diagnosticWindow(today, input.dateStart, input.dateEnd);
    return { accountId: account.id, campaignId, dateFrom: window.from, dateTo: window.to };
  }

  async function visible(ctx: RequestContext, id: string): Promise<DiagnosticDetail> {
    const detail = (await canSeeDiagnostic(sql, ctx, id)) ? await diagnostics.get(ctx, id) : undefined;
    if (!detail) throw new AppError('not_found', `Diagnostic ${id} was not found.`);
    return detail;
  }

  return {
    async list(
      ctx: RequestContext,
      filter: DiagnosticFilter,
    ): Promise<{ items: DiagnosticListItem[]; total: number; page: number; pageSize: number }> {
      checkFilterRange(filter.dateStart, filter.dateEnd, ['date_start', 'date_end']);
      const accounts: AccountSelection = filter.accountId
        ? { ids: [(await resolveAccount(sql, ctx, filter.accountId)).id] }
        : { visibleTo: ctx };
      const campaignId = filter.campaignId
        ? (await resolveCampaign(sql, ctx, filter.campaignId)).id
        : undefined;
      const { page, pageSize } = filter;
      const list = await diagnostics.list(ctx, {
        accounts,
        riskLevel: filter.riskLevel,
        dateStart: filter.dateStart,
        dateEnd: filter.dateEnd,
        status: filter.status,
        campaignId,
        page,
        pageSize,
      });
      return { items: list.items, total: list.total, page, pageSize };
    },

    get: visible,

    /** The detail as the app shows it: with the feedback this user gave and the campaign's target CPA. */
    async screen(ctx: RequestContext, id: string): Promise<ScreenDetail> {
      const detail = await visible(ctx, id);
      const target = detail.campaignId ? await targetCpaMicros(sql, detail.campaignId) : null;
      return {
        ...detail,
        feedback: await feedbackGiven(sql, id, await diagnostics.userFor(ctx)),
        campaignTargetCpa: target === null ? null : microsToAmount(target),
      };
    },

    /** Starts a diagnostic job (202 in /v1); poll `get` until completed or failed. */
    async start(ctx: RequestContext, input: RunInput): Promise<DiagnosticCreated> {
      return diagnostics.create(ctx, await target(ctx, input));
    },

    /** Runs a diagnostic to the end and returns it (the command line's `diagnose`). */
    async runNow(ctx: RequestContext, input: RunInput): Promise<DiagnosticDetail> {
      return diagnostics.runNow(ctx, await target(ctx, input));
    },

    async feedback(
      ctx: RequestContext,
      input: { diagnosticId: string; recommendationId: string; feedback: 'applied' | 'dismissed' },
    ) {
      await visible(ctx, input.diagnosticId);
      const { actionKind } = await diagnostics.feedback(ctx, input);
      return { ...input, actionKind };
    },

    /** Past completed diagnostics of a campaign, or of the whole account (no campaign), newest first. */
    async history(
      ctx: RequestContext,
      input: { accountId?: string | undefined; campaignId?: string | undefined },
    ): Promise<DiagnosticHistory> {
      const campaign = input.campaignId ? await resolveCampaign(sql, ctx, input.campaignId) : undefined;
      const accountRef = campaign?.accountId ?? input.accountId;
      if (!accountRef) throw new AppError('invalid_request', 'Name the account or the campaign.');
      const account = await resolveAccount(sql, ctx, accountRef);
      const rows = historyPoints(
        await completedDiagnostics(sql, ctx.workspaceId, account.id, campaign?.id ?? null, HISTORY_READ),
        HISTORY_LIMIT,
      );
      return {
        accountId: account.id,
        campaignId: campaign?.id ?? null,
        items: rows.map((r) => ({
          id: r.id,
          riskLevel: r.risk_level,
          issuesDetected: r.issues_detected,
          dateRange: { from: r.date_from, to: r.date_to },
          completedAt: r.completed_at,
          trigger: r.trigger,
        })),
      };
    },

    /** What changed since the previous completed diagnostic of the same scope: new, resolved, worse, better. */
    async changes(ctx: RequestContext, id: string): Promise<DiagnosticChanges> {
      const current = await visible(ctx, id);
      const empty = { newIssues: [], resolvedIssues: [], worsenedIssues: [], improvedIssues: [] };
      if (current.status !== 'completed' || !current.completedAt) {
        return { diagnosticId: id, previous: null, ...empty };
      }
      const previousId = await previousDiagnosticId(sql, {
        id,
        accountId: current.accountId,
        campaignId: current.campaignId,
        completedAt: current.completedAt,
      });
      const previous = previousId ? await visible(ctx, previousId) : null;
      return {
        diagnosticId: id,
        previous: previous
          ? { id: previous.id, riskLevel: previous.riskLevel, completedAt: previous.completedAt ?? '' }
          : null,
        ...compareDiagnostics(current, previous),
      };
    },

    /** Dated daily series for each issue's chart, with the baseline window, in the account's time zone. */
    async evidence(ctx: RequestContext, id: string): Promise<EvidenceSeries> {
      const detail = await visible(ctx, id);
      const account = await resolveAccount(sql, ctx, detail.accountId);
      return evidenceSeries(sql, detail, account.timezone);
    },

    async profile(ctx: RequestContext) {
      return diagnostics.getProfile(ctx);
    },

    async setProfile(ctx: RequestContext, change: Partial<Profile>) {
      await diagnostics.setProfile(ctx, change);
      return diagnostics.getProfile(ctx);
    },
  };
}

export type DiagnosticUseCases = ReturnType<typeof diagnosticUseCases>;
