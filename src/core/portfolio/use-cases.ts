// The portfolio read model, written once for every transport (IPC, the web dashboard, GET /v1/portfolio):
// each account the context sees on one line — this month's spend against its budgets or spend cap,
// results per result type and the goal, live issues, money at risk, sync and token — sorted by the
// attention score; and one account's overview (KPIs against the previous period, trend, top issues,
// recent changes).
import type { AppServices } from '../app-services';
import {
  readAccountLines,
  readAccounts,
  readLineRevisions,
  type AccountLine,
  type LineRevisions,
} from '../accounts/store';
import { accountChanges } from '../campaigns/changes';
import { addDays, dateInZone, dateRange } from '../clock';
import { resolveAccount, type RequestContext } from '../identity/access';
import { percentChange } from '../insights/metrics';
import { listIssueRows, toTrackedIssue } from '../issues/store';
import { microsToAmount, ratio } from '../money';
import type { RiskLevel } from '../../shared/api/diagnostics';
import type {
  AccountOverview,
  GoalStatus,
  Portfolio,
  PortfolioRow,
  ResultGroup,
} from '../../shared/api/portfolio';
import { attentionOf, capRunsOutOn, monthOf, paceOf } from './attention';
import {
  accountDays,
  accountTotals,
  accountWindowSums,
  type AccountWindowSums,
  campaignWindowSpends,
  dailyBudgetsMicros,
  liveIssues,
} from './store';
import { goalStatus, type GoalTarget } from './goals';
import { KeptLines } from '../kept-lines';
import { accountGoals } from '../goals/store';
import { accountResultGroups } from '../insights/account-results';
import type { Revisions } from '../insights/account-figures';
import { tokenWarningChangesAt } from '../sync/token-expiry';

/** Money at risk looks at the last 7 days of spend (what a problem costs per week). */
const RISK_DAYS = 7;
const OVERVIEW_DEFAULT_DAYS = 30;
const TOP_ISSUES = 5;
const RECENT_CHANGES = 10;

/** Lines held for reuse at most (a line costs a few KB, its JSON as much again); the oldest go first. */
const MAX_HELD_LINES = 20_000;

const round2 = (v: number): number => Math.round(v * 100) / 100;

/**
 * A built line and what it was built from: the account's two counters as read before its inputs, the
 * days it counted, and the instant its token warning next reads differently. While all still hold,
 * the line is what building it again would give.
 */
interface HeldLine {
  line: PortfolioRow;
  revision: number;
  lineRevision: number;
  sumsKey: string;
  validUntil: number;
}

/** An account's days as a portfolio line counts them, in its own time zone, and its figures' names. */
interface AccountDays {
  today: string;
  month: ReturnType<typeof monthOf>;
  /** The first day of the week whose spend is at risk. */
  weekFrom: string;
  /** The name of its month and week sums (account-figures.ts). */
  sumsKey: string;
}

function daysOf(today: string): AccountDays {
  const month = monthOf(today);
  const weekFrom = addDays(today, -(RISK_DAYS - 1));
  return {
    today,
    month,
    weekFrom,
    sumsKey: `portfolio|${month.from}|${today}|${weekFrom}`,
  };
}

/** Accounts of one time zone share their days: worked out once per zone, not per account. */
function daysByZone(now: Date): (timezone: string) => AccountDays {
  const byZone = new Map<string, AccountDays>();
  return (timezone) => {
    let days = byZone.get(timezone);
    if (!days) {
      days = daysOf(dateInZone(now, timezone));
      byZone.set(timezone, days);
    }
    return days;
  };
}

/** Whose list: who reads it decides which accounts are on it. */
function listKey(ctx: RequestContext): string {
  return `${ctx.workspaceId}|${ctx.mode}|${ctx.userId ?? ''}|${ctx.keyId ?? ''}`;
}

function blockedReason(a: AccountLine, capReached: boolean): string | null {
  if (a.connectionStatus === 'token_expired') return 'token expired: reconnect';
  if (a.connectionStatus === 'disconnected') return 'disconnected';
  if (a.status !== 'active') return `account ${a.status}${a.disableReason ? ` (${a.disableReason})` : ''}`;
  if (capReached) return 'spend cap reached';
  return null;
}

export function portfolioUseCases(services: AppServices) {
  const { core, sync } = services;
  const { sql, clock, figures } = core;
  const isSyncing = (id: string): boolean => sync.isSyncing(id);
  // A line (and the sorted list) that did not change since the last read is handed back as it was.
  const kept = new KeptLines<PortfolioRow>();
  /** Lines by workspace and account, with what they were built from (`home`). */
  const held = new Map<string, HeldLine>();

  function hold(
    workspaceId: string,
    counters: LineRevisions,
    line: PortfolioRow,
    days: AccountDays,
    now: Date,
  ) {
    const key = `${workspaceId}|${counters.id}`;
    held.delete(key);
    if (held.size >= MAX_HELD_LINES) held.delete(held.keys().next().value as string);
    held.set(key, {
      line,
      revision: counters.revision,
      lineRevision: counters.lineRevision,
      sumsKey: days.sumsKey,
      validUntil: tokenWarningChangesAt(line.tokenExpiresAt, now),
    });
  }

  /** One account's result groups over a window, kept under its revision. */
  async function resultsOf(
    revisions: Revisions,
    accountId: string,
    from: string,
    to: string,
  ): Promise<ResultGroup[]> {
    return (await accountResultGroups(sql, figures, revisions, () => ({ from, to }))).get(accountId) ?? [];
  }

  function rowOf(
    a: AccountLine,
    issues: Map<string, Record<RiskLevel, number>>,
    atRisk: Map<string, (string | null)[]>,
    days: AccountDays,
    sums: AccountWindowSums | undefined,
    budget: number,
    goal: GoalTarget | null,
    campaignRiskMicros: number,
    results: ResultGroup[],
  ): PortfolioRow {
    const { month } = days;
    // No rollup row in the window at all: the account has no spend there.
    const spend = sums?.monthMicros ?? 0;
    const spendToYesterday = month.to > month.from ? (sums?.monthToYesterdayMicros ?? 0) : 0;
    const { ratio: paceRatio, pace } = paceOf(spendToYesterday, budget, month);

    let spendCap: PortfolioRow['spendCap'] = null;
    if (a.spendCap !== null && a.spendCap > 0 && a.amountSpent !== null) {
      const remaining = Math.max(0, round2(a.spendCap - a.amountSpent));
      spendCap = {
        cap: a.spendCap,
        spent: a.amountSpent,
        remaining,
        runsOutOn: capRunsOutOn(Math.round(remaining * 1_000_000), spend, month),
      };
    }
    const capReached = spendCap !== null && spendCap.remaining <= 0;

    const counts = issues.get(a.id) ?? { CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 0 };
    const scopes = atRisk.get(a.id) ?? [];
    const weekMicros = sums?.weekMicros ?? 0;
    // An account-wide issue puts the whole week at risk; else the at-risk campaigns' week.
    const riskMicros = scopes.includes(null) ? weekMicros : campaignRiskMicros;
    const blocked = blockedReason(a, capReached);
    const syncError = a.sync.lastError?.message ?? null;
    return {
      accountId: a.id,
      platformAccountId: a.platformAccountId,
      name: a.name,
      businessName: a.businessName,
      currency: a.currency,
      timezone: a.timezone,
      status: a.status,
      connectionStatus: a.connectionStatus,
      blocked,
      month,
      spendThisMonth: microsToAmount(spend),
      dailyBudget: budget > 0 ? microsToAmount(budget) : null,
      monthlyBudget: budget > 0 ? microsToAmount(budget * month.daysInMonth) : null,
      paceRatio,
      pace,
      spendCap,
      results,
      goal: goalStatus(goal, results),
      issues: counts,
      moneyAtRisk: microsToAmount(riskMicros),
      lastSyncedAt: a.lastSyncedAt,
      syncError,
      tokenExpiresAt: a.tokenExpiresAt,
      tokenWarning: a.tokenWarning,
      attention: attentionOf({
        blocked,
        critical: counts.CRITICAL,
        high: counts.HIGH,
        riskShare: weekMicros > 0 ? riskMicros / weekMicros : 0,
        pace,
        capRunsOut: spendCap?.runsOutOn != null && !capReached,
        tokenWarning: a.tokenWarning !== null && a.connectionStatus === 'active',
        syncFailed: syncError !== null,
      }),
    };
  }

  /**
   * The accounts' rows; `revisions` as their account rows were read (readAccountLines, readAccounts).
   * `only`: the accounts' IDs when they are some of the workspace's (their issues are read alone).
   */
  async function rowsFor(
    ctx: RequestContext,
    accounts: readonly AccountLine[],
    revisions: Revisions,
    now: Date,
    only?: readonly string[],
  ): Promise<PortfolioRow[]> {
    const issues = new Map<string, Record<RiskLevel, number>>();
    // The campaigns (null = the whole account) with a live HIGH or CRITICAL issue.
    const atRisk = new Map<string, (string | null)[]>();
    for (const r of await liveIssues(sql, ctx.workspaceId, only)) {
      const counts = issues.get(r.account_id) ?? { CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 0 };
      counts[r.severity] += r.n;
      issues.set(r.account_id, counts);
      if (r.severity !== 'HIGH' && r.severity !== 'CRITICAL') continue;
      const scopes = atRisk.get(r.account_id);
      if (!scopes) atRisk.set(r.account_id, [r.campaign_id]);
      else if (!scopes.includes(r.campaign_id)) scopes.push(r.campaign_id);
    }
    const zoneDays = daysByZone(now);
    const days = new Map(accounts.map((a) => [a.id, zoneDays(a.timezone)]));
    const dayOf = (accountId: string) => days.get(accountId) as AccountDays;
    const sums = await figures.each<AccountWindowSums | null>(
      revisions,
      (id) => dayOf(id).sumsKey,
      (ids) =>
        accountWindowSums(
          sql,
          ids.map((id) => ({
            accountId: id,
            monthFrom: dayOf(id).month.from,
            today: dayOf(id).today,
            weekFrom: dayOf(id).weekFrom,
          })),
        ),
      null,
    );
    const budgets = await figures.each<number>(
      revisions,
      'daily-budgets',
      (ids) => dailyBudgetsMicros(sql, ids),
      0,
    );
    const goals = await accountGoals(
      sql,
      accounts.map((a) => a.id),
    );
    const results = await accountResultGroups(sql, figures, revisions, (id) => dayOf(id).month);
    const risk = await campaignRisks(revisions, atRisk, dayOf);
    return accounts.map((a) =>
      kept.keep(
        `${ctx.workspaceId}|${a.id}`,
        rowOf(
          a,
          issues,
          atRisk,
          dayOf(a.id),
          sums.get(a.id) ?? undefined,
          budgets.get(a.id) ?? 0,
          goals.get(a.id) ?? null,
          risk.get(a.id) ?? 0,
          results.get(a.id) ?? [],
        ),
      ),
    );
  }

  /**
   * The last week's spend of each account's campaigns with a live serious issue (accounts with an
   * account-wide one put their whole week at risk instead), kept under the account's revision.
   */
  function campaignRisks(
    revisions: Revisions,
    atRisk: ReadonlyMap<string, readonly (string | null)[]>,
    dayOf: (accountId: string) => { today: string; weekFrom: string },
  ): Promise<Map<string, number>> {
    const campaignsOf = (accountId: string): string[] => {
      const scopes = atRisk.get(accountId) ?? [];
      return scopes.includes(null) ? [] : (scopes as string[]).toSorted();
    };
    return figures.each<number>(
      revisions,
      (id) => `risk|${dayOf(id).weekFrom}|${dayOf(id).today}|${campaignsOf(id).join(',')}`,
      async (ids) => {
        const spends = await campaignWindowSpends(
          sql,
          ids.flatMap((id) =>
            campaignsOf(id).map((campaignId) => ({
              campaignId,
              from: dayOf(id).weekFrom,
              to: dayOf(id).today,
            })),
          ),
        );
        return new Map(
          ids.map((id) => [id, campaignsOf(id).reduce((sum, c) => sum + (spends.get(c) ?? 0), 0)]),
        );
      },
      0,
    );
  }

  return {
    /**
     * Every account the context sees, the one needing attention most first (then by name). Only the
     * lines whose inputs moved are built again: each account's counters are read first, and a held
     * line whose counters, days and token warning still hold is handed back as it is.
     */
    async home(ctx: RequestContext): Promise<Portfolio> {
      const now = clock.now();
      const zoneDays = daysByZone(now);
      const counters = await readLineRevisions(sql, ctx);
      const lines: PortfolioRow[] = [];
      const stale = new Map<string, LineRevisions>();
      for (const c of counters) {
        const h = held.get(`${ctx.workspaceId}|${c.id}`);
        const holds =
          h !== undefined &&
          h.revision === c.revision &&
          h.lineRevision === c.lineRevision &&
          now.getTime() < h.validUntil &&
          h.sumsKey === zoneDays(h.line.timezone).sumsKey;
        if (holds) lines.push(h.line);
        else stale.set(c.id, c);
      }
      if (stale.size > 0) {
        // Every line stale (the first read, a new day): the workspace's statements, not an ID list.
        const only = stale.size < counters.length ? [...stale.keys()] : undefined;
        const { accounts, revisions } = await readAccountLines(sql, ctx, now, only);
        for (const line of await rowsFor(ctx, accounts, revisions, now, only)) {
          lines.push(line);
          // Held under the counters read before its inputs: never newer than what it shows. An
          // account that appeared since is shown, and held from the next read.
          const c = stale.get(line.accountId);
          if (c) hold(ctx.workspaceId, c, line, zoneDays(line.timezone), now);
        }
      }
      const key = listKey(ctx);
      const last = kept.list(key);
      // The very lines of the last list: its order holds too.
      if (stale.size === 0 && last?.length === lines.length) {
        const same = new Set<PortfolioRow>(lines);
        if (last.every((line) => same.has(line))) return { generatedAt: now.toISOString(), items: last };
      }
      const items = lines.sort(
        (x, y) =>
          y.attention.score - x.attention.score ||
          x.name.localeCompare(y.name) ||
          (x.accountId < y.accountId ? -1 : 1),
      );
      return { generatedAt: now.toISOString(), items: kept.keepList(key, items) };
    },

    /** One account: KPIs of the last N days (30 by default) against the N days before, and what to look at. */
    async overview(ctx: RequestContext, input: { accountId: string; days?: number | undefined }) {
      const now = clock.now();
      const visible = await resolveAccount(sql, ctx, input.accountId);
      const {
        accounts: [account],
        revisions,
      } = await readAccounts(sql, ctx, { id: visible.id, page: 1, pageSize: 1 }, now, isSyncing, figures);
      if (!account) throw new Error(`account ${visible.id} vanished`);
      const [row] = await rowsFor(ctx, [account], revisions, now, [account.id]);
      const days = input.days ?? OVERVIEW_DEFAULT_DAYS;
      const to = dateInZone(now, account.timezone);
      const from = addDays(to, -(days - 1));
      const previousRange = { from: addDays(from, -days), to: addDays(from, -1) };
      const cur = await accountTotals(sql, account.id, from, to);
      const prev = await accountTotals(sql, account.id, previousRange.from, previousRange.to);
      const kpi = (value: number | null, previous: number | null) => ({
        value,
        previous,
        change: percentChange(value, previous),
      });
      const ctr = (t: typeof cur) => ratio(t.linkClicks, t.impressions, 100);
      const cpm = (t: typeof cur) =>
        t.impressions ? round2((t.spendMicros / 1e6 / t.impressions) * 1000) : null;

      const before = new Map(
        (await resultsOf(revisions, account.id, previousRange.from, previousRange.to)).map((g) => [
          `${g.resultType}\u0000${g.resultName}`,
          g,
        ]),
      );
      const results = (await resultsOf(revisions, account.id, from, to)).map((g) => {
        const p = before.get(`${g.resultType}\u0000${g.resultName}`);
        return {
          ...g,
          previousResults: p?.results ?? 0,
          previousCostPerResult: p?.costPerResult ?? null,
          resultsChange: percentChange(g.results, p?.results ?? null),
          costPerResultChange: percentChange(g.costPerResult, p?.costPerResult ?? null),
        };
      });
      const byDate = new Map((await accountDays(sql, account.id, from, to)).map((d) => [d.date, d]));
      const trend = dateRange(from, to).map((date) => {
        const d = byDate.get(date);
        return {
          date,
          spend: microsToAmount(d?.spendMicros ?? 0),
          impressions: d?.impressions ?? 0,
          clicks: d?.clicks ?? 0,
        };
      });
      const issues = await listIssueRows(sql, {
        workspaceId: ctx.workspaceId,
        accounts: { ids: [account.id] },
        states: ['open', 'acknowledged'],
        minSeverityRank: 1,
        page: 1,
        pageSize: TOP_ISSUES,
      });
      const overview: AccountOverview = {
        account: row as PortfolioRow,
        range: { from, to },
        previousRange,
        kpis: {
          spend: kpi(microsToAmount(cur.spendMicros), microsToAmount(prev.spendMicros)),
          impressions: kpi(cur.impressions, prev.impressions),
          ctr: kpi(ctr(cur), ctr(prev)),
          cpm: kpi(cpm(cur), cpm(prev)),
        },
        results,
        trend,
        topIssues: issues.rows.map(toTrackedIssue),
        recentChanges: await accountChanges(sql, account.id, RECENT_CHANGES),
      };
      return overview;
    },
  };
}

export type PortfolioUseCases = ReturnType<typeof portfolioUseCases>;
export type { GoalStatus };
