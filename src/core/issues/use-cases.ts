// Issues: the list every screen, the portfolio and /v1 read (live ones by default, worst first), and
// the analyst's acknowledge and snooze, with access and workspace scope decided once here.
import { RISK_LEVELS, type RiskLevel } from '../../shared/api/diagnostics';
import type { IssueState, SnoozeIssueBody, TrackedIssue } from '../../shared/api/issues';
import type { AppServices } from '../app-services';
import { dateInZone } from '../clock';
import { AppError } from '../errors';
import {
  resolveAccount,
  resolveCampaign,
  visibleAccounts,
  type AccountSelection,
  type RequestContext,
} from '../identity/access';
import { DEFAULT_PAGE_SIZE } from '../../shared/api/common';
import { actOnIssue, wakeSnoozed } from './lifecycle';
import { issueRow, listIssueRows, namesFor, toTrackedIssue } from './store';

export interface IssueListInput {
  accountId?: string | undefined;
  campaignId?: string | undefined;
  states?: IssueState[] | undefined;
  minSeverity?: RiskLevel | undefined;
  page?: number | undefined;
  pageSize?: number | undefined;
}

const LIVE_STATES: IssueState[] = ['open', 'acknowledged', 'snoozed'];

export function issueUseCases(services: AppServices) {
  const { core } = services;
  const { sql } = core;

  /** An issue of an account the context may see; anything else is 404. */
  async function own(ctx: RequestContext, id: string) {
    const row = await issueRow(sql, ctx.workspaceId, id);
    if (!row || !(await visibleAccounts(sql, ctx)).some((a) => a.id === row.account_id)) {
      throw new AppError('not_found', `Issue ${id} was not found.`);
    }
    return row;
  }

  return {
    async list(ctx: RequestContext, input: IssueListInput = {}) {
      await wakeSnoozed(core);
      const page = input.page ?? 1;
      const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
      const accounts: AccountSelection = input.accountId
        ? { ids: [(await resolveAccount(sql, ctx, input.accountId)).id] }
        : { visibleTo: ctx };
      const campaignId = input.campaignId
        ? (await resolveCampaign(sql, ctx, input.campaignId)).id
        : undefined;
      const { rows, total } = await listIssueRows(sql, {
        workspaceId: ctx.workspaceId,
        accounts,
        campaignId,
        states: input.states?.length ? input.states : LIVE_STATES,
        minSeverityRank: RISK_LEVELS.indexOf(input.minSeverity ?? 'LOW') + 1,
        page,
        pageSize,
      });
      return { items: rows.map(toTrackedIssue), total, page, pageSize };
    },

    async get(ctx: RequestContext, id: string): Promise<TrackedIssue> {
      const row = await own(ctx, id);
      return toTrackedIssue({ ...row, ...(await namesFor(sql, row)) });
    },

    async acknowledge(ctx: RequestContext, id: string): Promise<TrackedIssue> {
      const row = await own(ctx, id);
      if (row.state === 'resolved') throw new AppError('conflict', `Issue ${id} is resolved.`);
      const next = await actOnIssue(core, row, { kind: 'acknowledge' }, ctx.userId);
      return toTrackedIssue({ ...next, ...(await namesFor(sql, next)) });
    },

    /** Snoozed until a date (the account's calendar day, inclusive) and/or until it gets worse. */
    async snooze(ctx: RequestContext, id: string, body: SnoozeIssueBody): Promise<TrackedIssue> {
      const row = await own(ctx, id);
      if (row.state === 'resolved') throw new AppError('conflict', `Issue ${id} is resolved.`);
      if (body.until) {
        const account = await resolveAccount(sql, ctx, row.account_id);
        if (body.until < dateInZone(core.clock.now(), account.timezone)) {
          throw new AppError('invalid_request', 'until is in the past.');
        }
      }
      const next = await actOnIssue(
        core,
        row,
        { kind: 'snooze', until: body.until ?? null, untilWorse: body.untilWorse ?? false },
        ctx.userId,
      );
      return toTrackedIssue({ ...next, ...(await namesFor(sql, next)) });
    },
  };
}

export type IssueUseCases = ReturnType<typeof issueUseCases>;
