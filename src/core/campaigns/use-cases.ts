// Campaigns: the list and detail every transport shows, and the analyst's target CPA. Access, ID
// resolution, pagination and sort defaults, and insight windows (each account's own "today") are
// decided here once; the SQL is in ./store.
import { DEFAULT_PAGE_SIZE, type InsightsDateRange } from '../../shared/api/common';
import type { CampaignDetail, CampaignListItem } from '../../shared/api/campaigns';
import type { DiagnosticListItem, RiskLevel } from '../../shared/api/diagnostics';
import type { CampaignDetail as ScreenDetail, CampaignList } from '../../shared/ipc/types';
import type { AppServices } from '../app-services';
import { dateInZone } from '../clock';
import { AppError } from '../errors';
import {
  resolveAccount,
  resolveCampaign,
  visibleAccounts,
  type RequestContext,
  type VisibleAccount,
} from '../identity/access';
import { campaignDaily, campaignInsights, campaignInsightsInWindows, firstInsightDates } from '../insights';
import { microsToAmount } from '../money';
import { accountDateRange, resolveRange, windowOf, type RangeInput } from '../windows';
import {
  comparisonWindow,
  type CompareMode,
  type DatePreset,
  type DateRangeSpec,
  type DateWindow,
} from '../../shared/date-ranges';
import {
  campaignPage,
  type WindowedAccount,
  campaignRows,
  campaignWithAccount,
  firstInsightDate,
  screenAdSetsAndAds,
  targetCpaMicros,
  toRows,
} from './store';
import { adSetsOf, adsOf, campaignBase, campaignListItemOf, toInsights } from './views';
import { adIssuesOf, deliveryIssuesOf } from './blockers';
import { campaignChanges } from './changes';
import type { ChangeEvent } from '../../shared/api/changes';
import { PageAnchors } from './page-anchors';
import { KeptAnswers } from '../kept-lines';

export type CampaignInclude = 'adSets' | 'ads' | 'diagnostics' | 'insights';

const money = (micros: number | null): number | null => (micros === null ? null : microsToAmount(micros));

export function campaignUseCases(services: AppServices) {
  const { core, diagnostics } = services;
  const { sql, clock } = core;
  /** Campaign details' insights, each kept under its account's revision and day. */
  const keptInsights = new KeptAnswers<NonNullable<CampaignDetail['insights']>>();
  const anchors = new PageAnchors();

  /**
   * The window of a screen's range. With one account, its own "today"; across accounts, the latest
   * "today" among them (as the insights summary), never UTC's.
   */
  async function screenWindow(
    ctx: RequestContext,
    accountId: string | undefined,
    range: RangeInput | undefined,
  ) {
    const accounts = accountId
      ? [await resolveAccount(sql, ctx, accountId)]
      : await visibleAccounts(sql, ctx);
    const now = clock.now();
    const latest = accounts.reduce<{ zone: string; day: string } | null>((best, a) => {
      const day = dateInZone(now, a.timezone);
      return !best || day > best.day ? { zone: a.timezone, day } : best;
    }, null);
    return { accounts, window: resolveRange(now, range, latest?.zone ?? 'UTC', 7) };
  }

  /**
   * Each account's window and comparison for an Ads Manager range (its own "today"); the reference is
   * the account whose "today" is latest (the dates a screen shows). Without a range: the legacy window.
   */
  async function accountRanges(
    accounts: VisibleAccount[],
    spec: DateRangeSpec | undefined,
    legacy: DateWindow,
  ): Promise<{
    perAccount: Array<{ accountId: string; window: DateWindow; comparison: DateWindow | null }>;
    reference: { window: DateWindow; comparison: DateWindow | null };
  }> {
    const now = clock.now();
    if (!spec) {
      return {
        perAccount: accounts.map((a) => ({ accountId: a.id, window: legacy, comparison: null })),
        reference: { window: legacy, comparison: null },
      };
    }
    const firsts =
      spec.preset === 'maximum'
        ? await firstInsightDates(
            sql,
            accounts.map((a) => a.id),
          )
        : undefined;
    let reference: { today: string; window: DateWindow; comparison: DateWindow | null } | null = null;
    const perAccount = accounts.map((a) => {
      const r = accountDateRange(now, spec, a.timezone, firsts?.get(a.id));
      const today = dateInZone(now, a.timezone);
      if (!reference || today > reference.today) reference = { today, ...r };
      return { accountId: a.id, ...r };
    });
    const ref = reference as { window: DateWindow; comparison: DateWindow | null } | null;
    const fallback = accountDateRange(now, spec, 'UTC');
    return { perAccount, reference: ref ?? fallback };
  }

  return {
    /** The /v1 list: a page of campaigns with their last-7-day insights and latest diagnostic. */
    async list(
      ctx: RequestContext,
      input: {
        accountId?: string | undefined;
        status?: string | undefined;
        sort?: string | undefined;
        page?: number | undefined;
        pageSize?: number | undefined;
        /** Additions: an Ads Manager range (preset or dates) and a comparison period. */
        datePreset?: DatePreset | undefined;
        dateStart?: string | undefined;
        dateEnd?: string | undefined;
        compare?: CompareMode | undefined;
      },
    ): Promise<{ items: CampaignListItem[]; total: number; page: number; pageSize: number }> {
      const page = input.page ?? 1;
      const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
      const sort = input.sort ?? 'name';
      const now = clock.now();
      const ranged = input.datePreset !== undefined || input.dateStart !== undefined;
      const spec = ranged
        ? input.dateStart !== undefined
          ? {
              preset: 'custom' as const,
              from: input.dateStart,
              to: input.dateEnd,
              compare: input.compare ?? 'none',
            }
          : { preset: input.datePreset as DatePreset, compare: input.compare ?? 'none' }
        : { preset: 'custom' as const, compare: input.compare ?? 'none' };
      // The whole workspace by name is read without its accounts (campaignPage); by spend, or from each
      // account's first day ('maximum'), every account is needed.
      const accounts = input.accountId
        ? [await resolveAccount(sql, ctx, input.accountId)]
        : sort.endsWith('spend') || spec.preset === 'maximum'
          ? await visibleAccounts(sql, ctx)
          : null;
      if (accounts?.length === 0) return { items: [], total: 0, page, pageSize };
      const firsts =
        spec.preset === 'maximum' && accounts
          ? await firstInsightDates(
              sql,
              accounts.map((a) => a.id),
            )
          : undefined;
      // Without a range: the spec's last_7d (today included), and its previous 7 days when compared.
      const ranges = new Map<string, { window: DateWindow; comparison: DateWindow | null }>();
      const rangeOf = (a: WindowedAccount) => {
        let range = ranges.get(a.id);
        if (!range) {
          if (ranged) range = accountDateRange(now, spec, a.timezone, firsts?.get(a.id));
          else {
            const window = windowOf('last_7d', now, a.timezone);
            range = { window, comparison: comparisonWindow(window, spec.compare) };
          }
          ranges.set(a.id, range);
        }
        return range;
      };
      // A range refused for an account is refused before any page is read, whatever the page holds.
      if (accounts) for (const a of accounts) rangeOf(a);
      else if (ranged) accountDateRange(now, spec, 'UTC');
      const rangeOfRow = (row: { account_id: string; timezone: string }) =>
        rangeOf({ id: row.account_id, timezone: row.timezone });
      const { rows, total, insights, previous } = await campaignPage(
        sql,
        ctx,
        accounts,
        {
          status: input.status,
          sort,
          page,
          pageSize,
          wholeWorkspace: input.accountId === undefined,
        },
        (a) => rangeOf(a).window,
        (a) => rangeOf(a).comparison,
        anchors,
      );
      const latest = await diagnostics.latestForCampaigns(rows.map((row) => row.id));
      const blockers = await deliveryIssuesOf(
        sql,
        rows.map((row) => row.id),
      );
      const items = rows.map((row) => {
        const diag = latest.get(row.id);
        return campaignListItemOf(row, {
          deliveryIssues: blockers.get(row.id) ?? { disapprovedAds: 0, adsWithIssues: 0 },
          adSetCount: row.ad_set_count,
          adCount: row.ad_count,
          insights: toInsights(
            insights.get(row.id),
            ranged ? 'custom' : 'last_7d',
            ranged ? rangeOfRow(row).window : undefined,
          ),
          comparisonInsights: previous
            ? toInsights(previous.get(row.id), 'custom', rangeOfRow(row).comparison ?? undefined)
            : undefined,
          latestDiagnostic: diag
            ? {
                id: diag.id,
                riskLevel: diag.riskLevel as RiskLevel | null,
                issuesDetected: diag.issuesDetected,
                completedAt: diag.completedAt,
              }
            : null,
        });
      });
      return { items, total, page, pageSize };
    },

    /** The /v1 detail, with what `include` asks for and insights over an insightsDateRange. */
    async get(
      ctx: RequestContext,
      id: string,
      input: {
        include?: ReadonlySet<CampaignInclude> | undefined;
        insightsDateRange?: InsightsDateRange | undefined;
      },
    ): Promise<CampaignDetail> {
      const visible = await resolveCampaign(sql, ctx, id);
      const row = await campaignWithAccount(sql, visible.id);
      const include = input.include ?? new Set<CampaignInclude>();
      const detail: CampaignDetail = {
        ...campaignBase(row),
        specialAdCategories: JSON.parse(row.special_ad_categories || '[]') as string[],
        deliveryIssues: (await deliveryIssuesOf(sql, [row.id])).get(row.id) ?? {
          disapprovedAds: 0,
          adsWithIssues: 0,
        },
        adIssues: await adIssuesOf(sql, row.id),
      };
      if (include.has('insights')) {
        const range = input.insightsDateRange ?? 'last_7d';
        // Its figures move only with its account's revision (account-figures.ts) and the day: kept
        // under both (a lifetime series is 730 days summed and written out again otherwise).
        const now = clock.now();
        detail.insights = await keptInsights.answer(
          `${row.id}|${range}`,
          `${visible.revision}|${dateInZone(now, row.timezone)}`,
          async () => {
            const first = await firstInsightDate(sql, row.id);
            const window = windowOf(range, now, row.timezone, first);
            const totals = (
              await campaignInsights(sql, [row.id], window.from, window.to, [row.account_id])
            ).get(row.id);
            return {
              ...toInsights(totals, range),
              daily: (await campaignDaily(sql, row.id, window.from, window.to)).map((day) => ({
                date: day.date,
                spend: day.spend,
                conversions: day.conversions,
                cpa: day.cpa,
              })),
            };
          },
        );
      }
      if (include.has('adSets')) detail.adSets = await adSetsOf(sql, row.id);
      if (include.has('ads')) detail.ads = await adsOf(sql, row.id);
      if (include.has('diagnostics')) {
        const list = await diagnostics.list(ctx, {
          accounts: { ids: [row.account_id] },
          campaignId: row.id,
          page: 1,
          pageSize: 20,
        });
        detail.diagnostics = list.items as DiagnosticListItem[];
      }
      return detail;
    },

    /** The campaigns table of the app: every campaign (of one account or all) over a chosen range. */
    async table(
      ctx: RequestContext,
      input: {
        accountId?: string | undefined;
        range?: RangeInput | undefined;
        dateRange?: DateRangeSpec | undefined;
      },
    ): Promise<CampaignList> {
      const { accounts, window: legacy } = await screenWindow(ctx, input.accountId, input.range);
      const ranges = await accountRanges(accounts, input.dateRange, legacy);
      const only = input.accountId ? accounts[0]?.id : undefined;
      const rows = await campaignRows(sql, ctx, only ? 'AND c.account_id = ?' : '', only ? [only] : []);
      // One query per range, every account over its own window.
      const metrics = await campaignInsightsInWindows(
        sql,
        ranges.perAccount.map((r) => ({ accountId: r.accountId, ...r.window })),
      );
      const previous = ranges.reference.comparison
        ? await campaignInsightsInWindows(
            sql,
            ranges.perAccount.map((r) => ({ accountId: r.accountId, ...(r.comparison as DateWindow) })),
          )
        : null;
      return {
        dateRange: ranges.reference.window,
        comparison: ranges.reference.comparison,
        items: await toRows(sql, rows, metrics, previous),
      };
    },

    /** A campaign's page in the app: its row, daily series, ad sets and ads over a chosen range. */
    async screen(
      ctx: RequestContext,
      id: string,
      range?: RangeInput,
      dateRange?: DateRangeSpec,
    ): Promise<ScreenDetail> {
      const visible = await resolveCampaign(sql, ctx, id);
      const row = (await campaignRows(sql, ctx, 'AND c.id = ?', [visible.id]))[0];
      if (!row) throw new AppError('not_found', `Campaign ${id} was not found.`);
      const resolved = dateRange
        ? accountDateRange(clock.now(), dateRange, row.timezone, await firstInsightDate(sql, row.id))
        : { window: resolveRange(clock.now(), range, row.timezone, 30), comparison: null };
      const { from, to } = resolved.window;
      const compared = resolved.comparison;
      const campaign = (
        await toRows(
          sql,
          [row],
          await campaignInsights(sql, [row.id], from, to, [row.account_id]),
          compared
            ? await campaignInsights(sql, [row.id], compared.from, compared.to, [row.account_id])
            : null,
        )
      )[0] as CampaignList['items'][number];
      const { adSets, ads } = await screenAdSetsAndAds(sql, row, from, to);
      return {
        campaign,
        targetCpa: money(await targetCpaMicros(sql, row.id)),
        dateRange: { from, to },
        comparison: compared,
        daily: (await campaignDaily(sql, row.id, from, to)).map((d) => ({
          date: d.date,
          spend: d.spend,
          conversions: d.conversions,
          cpa: d.cpa,
          roas: d.roas,
          impressions: d.impressions,
          clicks: d.clicks,
        })),
        adSets,
        ads,
        deliveryIssues: (await deliveryIssuesOf(sql, [row.id])).get(row.id) ?? {
          disapprovedAds: 0,
          adsWithIssues: 0,
        },
        adIssues: await adIssuesOf(sql, row.id),
        changes: await campaignChanges(sql, row.id),
      };
    },

    /**
     * A campaign's change history: the synced activity log entries of the campaign, its ad sets and
     * its ads (budget, bid, schedule, status, targeting, attribution and creative edits), newest first.
     */
    async changes(ctx: RequestContext, id: string): Promise<ChangeEvent[]> {
      return campaignChanges(sql, (await resolveCampaign(sql, ctx, id)).id);
    },

    /**
     * The analyst's target CPA (account currency; null clears it): the diagnostics use it when the
     * campaign has no cost cap (decision order: cost cap, this target, the campaign's own baseline).
     */
    async setTargetCpa(
      ctx: RequestContext,
      id: string,
      amount: number | null,
    ): Promise<{ campaignId: string; targetCpa: number | null }> {
      const campaign = await resolveCampaign(sql, ctx, id);
      await diagnostics.setTargetCpa(ctx, campaign.id, amount);
      return { campaignId: campaign.id, targetCpa: money(await targetCpaMicros(sql, campaign.id)) };
    },
  };
}

export type CampaignUseCases = ReturnType<typeof campaignUseCases>;
