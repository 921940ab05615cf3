// Insights: the summary (totals, trends, daily series, breakdown per campaign or per account) every
// transport shows.
// One rule for the window (the dates given, else the N days ending today, "today" being the latest
// calendar day among the selected accounts' time zones), for the selection (account, campaigns of
// it) and for currencies (never summed across them: one total per currency, plus one in the agency's
// reporting currency where it has set exchange rates).
import type { AppServices } from '../app-services';
import { addDays, dateInZone } from '../clock';
import { AppError } from '../errors';
import {
  resolveAccount,
  resolveCampaign,
  visibleAccounts,
  type RequestContext,
  type VisibleAccount,
} from '../identity/access';
import { accountDateRange, checkWindow } from '../windows';
import type { DateRangeSpec } from '../../shared/date-ranges';
import { firstInsightDates } from './index';
import { reportingCurrencyOf } from '../settings/use-cases';
import { insightsSummary, type BreakdownLevel, type InsightsSummary } from './index';
import type { BreakdownLine, InsightsQuery } from './summary';
import { KeptAnswers, KeptLines } from '../kept-lines';

/** Shown when nothing is selected (no visible account): the summary is all zeros anyway. */
const EMPTY_CURRENCY = 'USD';
export const MAX_SUMMARY_CAMPAIGNS = 100;

export interface SummaryInput {
  accountId?: string | undefined;
  campaignIds?: readonly string[] | undefined;
  dateStart?: string | undefined;
  dateEnd?: string | undefined;
  /** Without dates: the number of days ending today (default 7). */
  days?: number | undefined;
  /** An Ads Manager range (wins over the above) and what to compare with (trends are null for none). */
  dateRange?: DateRangeSpec | undefined;
  /**
   * One breakdown line per campaign or per account. Default: per account when the summary spans
   * several accounts (an agency's workspace has tens of thousands of campaigns), else per campaign.
   */
  breakdown?: BreakdownLevel | undefined;
}

export function insightUseCases(services: AppServices) {
  const { sql, clock, figures } = services.core;
  // A breakdown line that reads as it did in an earlier answer is that line, its JSON kept with it.
  const kept = new KeptLines<BreakdownLine>();
  const answers = new KeptAnswers<InsightsSummary>();
  return {
    async summary(ctx: RequestContext, input: SummaryInput): Promise<InsightsSummary> {
      // An explicit range is checked first: its error (invalid_date_range) comes before any lookup.
      if (input.dateStart !== undefined && input.dateEnd !== undefined)
        checkWindow(input.dateStart, input.dateEnd);
      let accounts: VisibleAccount[] = input.accountId
        ? [await resolveAccount(sql, ctx, input.accountId)]
        : await visibleAccounts(sql, ctx);
      let campaignIds: string[] | undefined;
      if (input.campaignIds && input.breakdown === 'account') {
        throw new AppError(
          'invalid_request',
          'breakdown=account cannot be combined with campaign_ids: a campaign selection is broken down per campaign.',
        );
      }
      if (input.campaignIds) {
        if (input.campaignIds.length > MAX_SUMMARY_CAMPAIGNS) {
          throw new AppError(
            'invalid_request',
            `campaign_ids accepts at most ${MAX_SUMMARY_CAMPAIGNS} campaign IDs.`,
          );
        }
        const campaigns = await Promise.all(input.campaignIds.map((id) => resolveCampaign(sql, ctx, id)));
        const allowed = new Set(accounts.map((a) => a.id));
        const outside = campaigns.find((c) => !allowed.has(c.accountId));
        if (outside) {
          throw new AppError(
            'not_found',
            `Campaign ${outside.id} was not found in account ${input.accountId}.`,
          );
        }
        const used = new Set(campaigns.map((c) => c.accountId));
        accounts = accounts.filter((a) => used.has(a.id));
        campaignIds = campaigns.map((c) => c.id);
      }
      // Several currencies: one total per currency, and the agency's reporting currency where set.
      const currencies = [...new Set(accounts.map((a) => a.currency))].sort();
      const now = clock.now();
      // "Today" is the latest among the selected accounts' time zones.
      const zone = accounts.reduce<{ zone: string; day: string } | null>((best, a) => {
        const day = dateInZone(now, a.timezone);
        return !best || day > best.day ? { zone: a.timezone, day } : best;
      }, null);
      const today = zone?.day ?? dateInZone(now, 'UTC');
      let window: { from: string; to: string };
      let comparison: { from: string; to: string } | null | undefined;
      if (input.dateRange) {
        const first =
          input.dateRange.preset === 'maximum'
            ? [
                ...(
                  await firstInsightDates(
                    sql,
                    accounts.map((a) => a.id),
                  )
                ).values(),
              ]
                .filter(Boolean)
                .sort()[0]
            : undefined;
        const resolved = accountDateRange(now, input.dateRange, zone?.zone ?? 'UTC', first);
        window = resolved.window;
        comparison = resolved.comparison;
      } else {
        const to = input.dateEnd ?? today;
        const from = input.dateStart ?? addDays(to, -((input.days ?? 7) - 1));
        window = checkWindow(from, to);
      }
      const breakdown: BreakdownLevel =
        input.breakdown ?? (!campaignIds && !input.accountId && accounts.length > 1 ? 'account' : 'campaign');
      const query: InsightsQuery = {
        accountIds: accounts.map((a) => a.id),
        campaignIds,
        breakdown,
        accountNames: new Map(accounts.map((a) => [a.id, a.name])),
        revisions: new Map(accounts.map((a) => [a.id, a.revision])),
        from: window.from,
        to: window.to,
        currency: currencies[0] ?? EMPTY_CURRENCY,
        ...(currencies.length > 1
          ? {
              accountCurrencies: new Map(accounts.map((a) => [a.id, a.currency])),
              reporting: await reportingCurrencyOf(sql, ctx.workspaceId),
            }
          : {}),
        ...(comparison !== undefined ? { comparison } : {}),
      };
      const build = () => insightsSummary(sql, query, figures, kept);
      // Accounts' figures follow their revisions (account-figures.ts): the same accounts at the same
      // revisions, names, window and rates make the same answer, handed back whole (a workspace's 500
      // accounts: 158 KB built and written again on every request otherwise). A campaign selection
      // reads its campaigns' rows directly: built every time.
      if (campaignIds) return build();
      return answers.answer(JSON.stringify([ctx.workspaceId, ctx.mode, input]), inputsOf(query), build);
    },
  };
}

export type InsightUseCases = ReturnType<typeof insightUseCases>;

/** Everything a summary is made of, as text: its maps as lists of entries. */
function inputsOf(query: InsightsQuery): string {
  return JSON.stringify(query, (_, value: unknown) => (value instanceof Map ? [...value] : value));
}
