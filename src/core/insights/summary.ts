// The insights summary: totals, trends, the daily series, a breakdown and results per result type,
// in one currency or across several. The breakdown is per campaign, or per account for a summary of
// many accounts: an agency's workspace has tens of thousands of campaigns, and listing each one's
// sums over two windows reads millions of campaign rows, while one line per account comes from the
// account-day rollup and its results per type from the per-account memo (account-results.ts).
import { addDays, dateRange, daysBetween } from '../clock';
import type { Sql } from '../store/sql';
import {
  addInto,
  addTotals,
  zeroDay,
  deriveMetrics,
  percentChange,
  ratio4,
  ZERO_TOTALS,
  type DerivedMetrics,
  type RawTotals,
} from './metrics';
import { groupByResultType, mergeResultRows, toResultGroups, type ResultTypeRow } from './result-groups';
import type { ResultGroup } from '../../shared/api/portfolio';
import type { ReportingCurrency } from '../../shared/api/reporting-currency';
import { convertersFor, convertTotals, type MicrosConverter } from './currencies';
import { AccountFigures, type Revisions } from './account-figures';
import { accountResults } from './account-results';
import type { KeptLines } from '../kept-lines';
import {
  campaignLabels,
  daysPerAccount,
  sumDaily,
  sumPerAccount,
  sumPerCampaign,
  type AccountSums,
  type CampaignLabel,
  type Day,
  type Scope,
  type Window,
} from './queries';

/** What each line of the breakdown is. */
export type BreakdownLevel = 'campaign' | 'account';

export interface InsightsQuery {
  /** The accounts the caller may see; every query is confined to them. */
  accountIds: readonly string[];
  /** Optional narrower selection (already checked to belong to accountIds by the caller). */
  campaignIds?: readonly string[] | undefined;
  from: string;
  to: string;
  currency: string;
  /** The period trends compare with: default the previous equal-length period; null for none. */
  comparison?: { from: string; to: string } | null | undefined;
  /**
   * Each selected account's currency. When they differ, money is never added as it is: the summary
   * gives one total per currency (`currencies`) and, with the agency's reporting currency and rates
   * (`reporting`), the spec's fields converted into it; without them the spec's money fields are
   * empty under the ISO 4217 code for "no currency", XXX.
   */
  accountCurrencies?: ReadonlyMap<string, string> | undefined;
  reporting?: ReportingCurrency | null | undefined;
  /** One line per campaign (default) or per account; a campaign selection is always per campaign. */
  breakdown?: BreakdownLevel | undefined;
  /** The accounts' names, for a breakdown per account. */
  accountNames?: ReadonlyMap<string, string> | undefined;
  /** The accounts' revisions as read with them (read here when absent). */
  revisions?: Revisions | undefined;
}

/** ISO 4217's code for "no currency": the currency of a summary across currencies without rates. */
export const NO_CURRENCY = 'XXX';

export interface CurrencyTotals {
  currency: string;
  accounts: number;
  totals: InsightsSummary['totals'];
  trends: InsightsSummary['trends'];
}

export interface InsightsSummary {
  dateRange: { from: string; to: string };
  granularity: 'daily';
  currency: string;
  totals: {
    spend: number;
    impressions: number;
    clicks: number;
    conversions: number;
    cpa: number | null;
    roas: number | null;
    ctr: number | null;
    cpm: number | null;
    frequency: number | null;
    reach: number;
  };
  trends: {
    spendChange: number | null;
    conversionsChange: number | null;
    cpaChange: number | null;
    roasChange: number | null;
  };
  timeSeries: Array<{
    date: string;
    spend: number;
    conversions: number;
    cpa: number | null;
    roas: number | null;
  }>;
  breakdown: Array<{
    entity: { type: BreakdownLevel; id: string; name: string };
    spend: number;
    conversions: number;
    cpa: number | null;
    roas: number | null;
    /** The same over the comparison period (addition); null without one. */
    previous: { spend: number; conversions: number; cpa: number | null; roas: number | null } | null;
    /**
     * Addition: what `conversions` count (never added across types; an account whose campaigns
     * count several: MIXED) and the purchase value.
     */
    resultType: string | null;
    resultName: string | null;
    revenue: number;
    /** Addition, across currencies without rates only: the line's own currency. */
    currency?: string;
  }>;
  /**
   * Addition: results and cost per result per result type (the largest spend first), ROAS only where
   * there is purchase value, each with the same over the comparison period (null without one).
   */
  resultsByType: Array<
    ResultGroup & { previous: { results: number; costPerResult: number | null; roas: number | null } | null }
  >;
  /** Addition, when the selected accounts use several currencies: one total per currency. */
  currencies?: CurrencyTotals[];
  /** Addition, across currencies: the reporting currency and rates the spec's fields were converted at. */
  conversion?: ReportingCurrency | null;
}

/** The previous period of equal length that ends the day before `from`. */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  const length = daysBetween(from, to);
  return { from: addDays(from, -length), to: addDays(from, -1) };
}

/** One line of the breakdown as summed, in its account's currency. */
interface Line {
  entity: { type: BreakdownLevel; id: string; name: string };
  accountId: string;
  now: RawTotals;
  /** Null without a comparison period. */
  before: RawTotals | null;
  resultType: string | null;
  resultName: string | null;
}

/**
 * The breakdown, each account's totals over the comparison period (null without one) and its results
 * per type (now, and over the comparison period).
 */
interface Parts {
  lines: Line[];
  previousByAccount: Map<string, RawTotals> | null;
  resultsNow: Map<string, ResultTypeRow[]>;
  resultsBefore: Map<string, ResultTypeRow[]> | null;
}

/** A currency's accounts with their days and the comparison period's totals. */
interface CurrencyGroup {
  currency: string;
  accountIds: string[];
  days: Array<RawTotals & { date: string }>;
  previous: RawTotals | null;
}

/**
 * The spec's insights summary. Reach is the sum of daily reach (unique people per day, summed:
 * Meta's de-duplicated reach over a range is not derivable from daily rows), and frequency is
 * impressions / that reach. Without a campaign selection, what is read per account (its days, its
 * sums, its results per type) is kept in `figures` under the account's revision.
 */
export async function insightsSummary(
  sql: Sql,
  q: InsightsQuery,
  figures: AccountFigures = new AccountFigures(),
  /** Breakdown lines of earlier answers, handed back where a line reads the same (kept-lines.ts). */
  kept?: KeptLines<BreakdownLine>,
): Promise<InsightsSummary> {
  const compared = q.comparison === undefined ? previousPeriod(q.from, q.to) : q.comparison;
  const keep = kept ? keeperOf(kept, q, compared) : null;
  const revisions = q.campaignIds ? null : (q.revisions ?? (await figures.revisions(sql, q.accountIds)));
  const parts =
    q.breakdown === 'account' && revisions
      ? await perAccount(sql, q, compared, figures, revisions)
      : await perCampaign(sql, q, compared, figures, revisions);
  const byCurrency = currencyGroups(q);
  const days = revisions
    ? await accountDaysByCurrency(sql, figures, revisions, byCurrency, q)
    : await campaignDaysByCurrency(sql, byCurrency, q.campaignIds ?? [], q);
  const previousOf = (accountIds: readonly string[]): RawTotals | null => {
    const previous = parts.previousByAccount;
    if (!previous) return null;
    return accountIds.reduce<RawTotals>((sum, id) => {
      const own = previous.get(id);
      return own ? addTotals(sum, own) : sum;
    }, ZERO_TOTALS);
  };
  const groups: CurrencyGroup[] = [...byCurrency].map(([currency, accountIds]) => ({
    currency,
    accountIds,
    days: days.get(currency) ?? [],
    previous: previousOf(accountIds),
  }));
  const [only] = groups;
  if (groups.length > 1) return acrossCurrencies(q, groups, parts, compared !== null, keep);
  return buildSummary(q, q.currency, keep, {
    days: only?.days ?? [],
    previous: compared ? (only?.previous ?? ZERO_TOTALS) : null,
    lines: parts.lines,
    resultsNow: mergeResultRows([...parts.resultsNow.values()].flat()),
    resultsBefore: parts.resultsBefore ? mergeResultRows([...parts.resultsBefore.values()].flat()) : null,
  });
}

/** A campaign's sums over a window with its name, result type and account. */
type LabelledSums = CampaignSums & { label: CampaignLabel };

/** Campaigns' sums over a window, each with its label (campaigns without delivery in it absent). */
async function labelledSums(sql: Sql, scope: Scope, w: Window): Promise<LabelledSums[]> {
  const rows = await sumPerCampaign(sql, scope, w);
  const labels = await campaignLabels(
    sql,
    rows.map((row) => row.campaignId),
  );
  return rows.flatMap((row) => {
    const label = labels.get(row.campaignId);
    return label ? [{ ...row, label }] : [];
  });
}

/**
 * One line per campaign with delivery in the window, from the campaign rows: kept per account under
 * its revision for whole accounts, read each time for a campaign selection.
 */
async function perCampaign(
  sql: Sql,
  q: InsightsQuery,
  compared: Window | null,
  figures: AccountFigures,
  revisions: Revisions | null,
): Promise<Parts> {
  const read = async (w: Window): Promise<LabelledSums[]> => {
    if (!revisions) return labelledSums(sql, { accountIds: q.accountIds, campaignIds: q.campaignIds }, w);
    const kept = await figures.each<LabelledSums[]>(
      revisions,
      `campaign-sums|${w.from}|${w.to}`,
      async (accountIds) => byAccount(await labelledSums(sql, { accountIds }, w)),
      [],
    );
    return [...kept.values()].flat();
  };
  const now = await read(q);
  const earlier = compared ? await read(compared) : null;
  const before = earlier ? new Map(earlier.map((row) => [row.campaignId, row])) : null;
  const lines = now.map((row): Line => ({
    entity: { type: 'campaign', id: row.campaignId, name: row.label.name },
    accountId: row.label.accountId,
    now: row,
    before: before ? (before.get(row.campaignId) ?? ZERO_TOTALS) : null,
    resultType: row.label.resultType,
    resultName: row.label.resultName,
  }));
  const earlierByAccount = earlier ? byAccount(earlier) : null;
  return {
    lines,
    previousByAccount: earlierByAccount
      ? new Map(
          [...earlierByAccount].map(([id, rows]) => [id, rows.reduce<RawTotals>(addTotals, ZERO_TOTALS)]),
        )
      : null,
    resultsNow: resultsByAccount(byAccount(now)),
    resultsBefore: earlierByAccount ? resultsByAccount(earlierByAccount) : null,
  };
}

type CampaignSums = RawTotals & { campaignId: string };

/** Campaigns' sums by their account. */
function byAccount(rows: readonly LabelledSums[]): Map<string, LabelledSums[]> {
  const out = new Map<string, LabelledSums[]>();
  for (const row of rows) {
    const own = out.get(row.label.accountId);
    if (own) own.push(row);
    else out.set(row.label.accountId, [row]);
  }
  return out;
}

/** Each account's results per type from its campaigns' sums. */
function resultsByAccount(rows: ReadonlyMap<string, readonly LabelledSums[]>): Map<string, ResultTypeRow[]> {
  return new Map(
    [...rows].map(([id, own]) => [
      id,
      groupByResultType(own, new Map(own.map((r) => [r.campaignId, r.label]))),
    ]),
  );
}

/** One line per account with delivery in the window, from the rollup; results per type kept. */
async function perAccount(
  sql: Sql,
  q: InsightsQuery,
  compared: Window | null,
  figures: AccountFigures,
  revisions: Revisions,
): Promise<Parts> {
  const sumsOver = async (w: Window): Promise<AccountSums[]> => {
    const kept = await figures.each<AccountSums | null>(
      revisions,
      `sums|${w.from}|${w.to}`,
      async (accountIds) => new Map((await sumPerAccount(sql, accountIds, w)).map((s) => [s.accountId, s])),
      null,
    );
    return [...kept.values()].filter((s): s is AccountSums => s !== null);
  };
  const now = await sumsOver(q);
  const earlier = compared ? await sumsOver(compared) : null;
  const resultsNow = await accountResults(sql, figures, revisions, () => q);
  const resultsBefore = compared ? await accountResults(sql, figures, revisions, () => compared) : null;
  const before = earlier ? new Map(earlier.map((s) => [s.accountId, s])) : null;
  const lines = now.map((s): Line => {
    const groups = resultsNow.get(s.accountId) ?? [];
    // What the account's conversions count: its one result type, or MIXED when its campaigns differ.
    const [first] = groups;
    const single = groups.length === 1 && first !== undefined;
    return {
      entity: { type: 'account', id: s.accountId, name: q.accountNames?.get(s.accountId) ?? '' },
      accountId: s.accountId,
      now: s,
      before: before ? (before.get(s.accountId) ?? ZERO_TOTALS) : null,
      resultType: single ? first.result_type : groups.length > 1 ? 'MIXED' : null,
      resultName: single ? first.result_name : null,
    };
  });
  return { lines, previousByAccount: before, resultsNow, resultsBefore };
}

/**
 * Each currency's days: its accounts' rollup days (kept per account) added date by date, the
 * addition kept under its accounts' revisions.
 */
async function accountDaysByCurrency(
  sql: Sql,
  figures: AccountFigures,
  revisions: Revisions,
  accountsByCurrency: ReadonlyMap<string, readonly string[]>,
  window: Window,
): Promise<Map<string, Day[]>> {
  const name = `days|${window.from}|${window.to}`;
  const out = new Map<string, Day[]>();
  for (const [currency, accountIds] of accountsByCurrency) {
    const days = await figures.across(revisions, accountIds, `${name}|${currency}`, async () => {
      // The group's accounts that exist (an account gone since the caller listed it has no days).
      const own = new Map<string, number>();
      for (const id of accountIds) {
        const revision = revisions.get(id);
        if (revision !== undefined) own.set(id, revision);
      }
      const perAccount = await figures.each<Day[]>(own, name, (ids) => daysPerAccount(sql, ids, window), []);
      const byDate = new Map<string, Day>();
      for (const accountDays of perAccount.values()) {
        for (const day of accountDays) {
          let total = byDate.get(day.date);
          if (!total) {
            total = zeroDay(day.date);
            byDate.set(day.date, total);
          }
          addInto(total, day);
        }
      }
      return [...byDate.values()];
    });
    out.set(currency, days);
  }
  return out;
}

/** Each currency's days of a campaign selection (small: a statement per currency). */
async function campaignDaysByCurrency(
  sql: Sql,
  accountsByCurrency: ReadonlyMap<string, readonly string[]>,
  campaignIds: readonly string[],
  window: Window,
): Promise<Map<string, Day[]>> {
  const out = new Map<string, Day[]>();
  for (const [currency, accountIds] of accountsByCurrency)
    out.set(currency, await sumDaily(sql, { accountIds, campaignIds }, window));
  return out;
}

/** The selected accounts by currency (one group when the query names no currencies). */
function currencyGroups(q: InsightsQuery): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const id of q.accountIds) {
    const currency = q.accountCurrencies?.get(id) ?? q.currency;
    const own = groups.get(currency);
    if (own) own.push(id);
    else groups.set(currency, [id]);
  }
  return new Map([...groups].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * Several currencies: one total per currency; converted into the reporting currency when the agency
 * has rates for all of them, else the spec's money fields stay empty under XXX and each line of the
 * breakdown keeps its own currency.
 */
function acrossCurrencies(
  q: InsightsQuery,
  groups: CurrencyGroup[],
  parts: Parts,
  comparing: boolean,
  keep: Keeper | null,
): InsightsSummary {
  const currencyOfAccount = new Map(groups.flatMap((g) => g.accountIds.map((id) => [id, g.currency])));
  const currencyOf = (accountId: string): string => currencyOfAccount.get(accountId) ?? q.currency;
  const currencies: CurrencyTotals[] = groups.map((g) => {
    const current = g.days.reduce<RawTotals>(addTotals, ZERO_TOTALS);
    return {
      currency: g.currency,
      accounts: g.accountIds.length,
      totals: totalsOf(current),
      trends: trendsOf(current, g.previous),
    };
  });
  const converters = convertersFor(
    q.reporting ?? null,
    groups.map((g) => g.currency),
  );
  if (converters && q.reporting) {
    const converterOf = (currency: string): MicrosConverter => converters.get(currency) ?? ((m) => m);
    const days = addByDate(groups.map((g) => ({ days: g.days, convert: converterOf(g.currency) })));
    let previous: RawTotals | null = comparing ? ZERO_TOTALS : null;
    for (const g of groups) {
      if (previous && g.previous)
        previous = addTotals(previous, convertTotals(g.previous, converterOf(g.currency)));
    }
    const convertResults = (perAccount: Map<string, ResultTypeRow[]>): ResultTypeRow[] =>
      mergeResultRows(
        [...perAccount].flatMap(([accountId, rows]) => {
          const convert = converterOf(currencyOf(accountId));
          return rows.map((r) => ({
            ...r,
            spend_micros: convert(r.spend_micros),
            revenue_micros: convert(r.revenue_micros),
          }));
        }),
      );
    const summary = buildSummary(q, q.reporting.currency, keep, {
      days,
      previous,
      lines: parts.lines.map((line) => {
        const convert = converterOf(currencyOf(line.accountId));
        return {
          ...line,
          now: convertTotals(line.now, convert),
          before: line.before ? convertTotals(line.before, convert) : null,
        };
      }),
      resultsNow: convertResults(parts.resultsNow),
      resultsBefore: parts.resultsBefore ? convertResults(parts.resultsBefore) : null,
    });
    return { ...summary, currencies, conversion: q.reporting };
  }
  // No rates: counts are added across currencies, money is not.
  const previous = comparing
    ? groups.reduce<RawTotals>((sum, g) => (g.previous ? addTotals(sum, g.previous) : sum), ZERO_TOTALS)
    : null;
  const summary = buildSummary(q, NO_CURRENCY, keep, {
    days: addByDate(groups.map((g) => ({ days: g.days, convert: null }))),
    previous,
    lines: parts.lines,
    resultsNow: [],
    resultsBefore: null,
    // Each line keeps its own currency.
    lineCurrency: (line) => currencyOf(line.accountId),
  });
  return {
    ...summary,
    totals: { ...summary.totals, spend: 0, cpa: null, roas: null, cpm: null },
    trends: { ...summary.trends, spendChange: null, cpaChange: null, roasChange: null },
    timeSeries: summary.timeSeries.map((day) => ({ ...day, spend: 0, cpa: null, roas: null })),
    resultsByType: [],
    currencies,
    conversion: null,
  };
}

/** Several groups' days added date by date (each converted first when a converter is given). */
function addByDate(
  groups: ReadonlyArray<{
    days: ReadonlyArray<RawTotals & { date: string }>;
    convert: MicrosConverter | null;
  }>,
): Array<RawTotals & { date: string }> {
  const days = new Map<string, RawTotals & { date: string }>();
  for (const g of groups) {
    for (const day of g.days) {
      let sum = days.get(day.date);
      if (!sum) {
        sum = zeroDay(day.date);
        days.set(day.date, sum);
      }
      addInto(sum, g.convert ? convertTotals(day, g.convert) : day);
    }
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
}

function totalsOf(current: RawTotals): InsightsSummary['totals'] {
  const now = deriveMetrics(current);
  return {
    spend: now.spend,
    impressions: now.impressions,
    clicks: now.clicks,
    conversions: now.conversions,
    cpa: now.cpa,
    roas: now.roas,
    ctr: now.ctr,
    cpm: now.cpm,
    frequency: ratio4(current.impressions, current.reach),
    reach: current.reach,
  };
}

function trendsOf(current: RawTotals, previous: RawTotals | null): InsightsSummary['trends'] {
  const now = deriveMetrics(current);
  const before = previous ? deriveMetrics(previous) : null;
  return {
    spendChange: percentChange(current.spendMicros, previous?.spendMicros ?? null),
    conversionsChange: percentChange(current.conversions, previous?.conversions ?? null),
    cpaChange: percentChange(now.cpa, before?.cpa ?? null),
    roasChange: percentChange(now.roas, before?.roas ?? null),
  };
}

/** The window's sums, all in one currency. */
interface Summed {
  days: Array<RawTotals & { date: string }>;
  previous: RawTotals | null;
  lines: Line[];
  resultsNow: ResultTypeRow[];
  resultsBefore: ResultTypeRow[] | null;
  /** Across currencies without rates: each line's own currency. */
  lineCurrency?: (line: Line) => string;
}

const moneyOf = ({ spend, conversions, cpa, roas }: DerivedMetrics) => ({ spend, conversions, cpa, roas });

/** The spec's summary (and its additions) from the window's sums, all in `currency`. */
function buildSummary(q: InsightsQuery, currency: string, keep: Keeper | null, raw: Summed): InsightsSummary {
  const current = raw.days.reduce<RawTotals>(addTotals, ZERO_TOTALS);
  const byDate = new Map(raw.days.map((row) => [row.date, row]));
  const timeSeries = dateRange(q.from, q.to).map((date) => {
    const m = deriveMetrics(byDate.get(date) ?? ZERO_TOTALS);
    return { date, spend: m.spend, conversions: m.conversions, cpa: m.cpa, roas: m.roas };
  });

  const typeKey = (g: ResultGroup) => `${g.resultType ?? ''}\u0000${g.resultName ?? ''}`;
  const typesBefore = raw.resultsBefore
    ? new Map(toResultGroups(raw.resultsBefore).map((g) => [typeKey(g), g]))
    : null;
  const resultsByType = toResultGroups(raw.resultsNow).map((g) => {
    const p = typesBefore?.get(typeKey(g));
    return {
      ...g,
      previous: typesBefore
        ? { results: p?.results ?? 0, costPerResult: p?.costPerResult ?? null, roas: p?.roas ?? null }
        : null,
    };
  });
  const breakdown = [...raw.lines]
    .sort((a, b) => b.now.spendMicros - a.now.spendMicros || a.entity.id.localeCompare(b.entity.id))
    .map((line) => {
      const m = deriveMetrics(line.now);
      const made: BreakdownLine = {
        entity: line.entity,
        ...moneyOf(m),
        previous: line.before ? moneyOf(deriveMetrics(line.before)) : null,
        resultType: line.resultType,
        resultName: line.resultName,
        revenue: m.revenue,
        ...(raw.lineCurrency ? { currency: raw.lineCurrency(line) } : {}),
      };
      return keep ? keep.line(currency, made) : made;
    });

  return {
    dateRange: { from: q.from, to: q.to },
    granularity: 'daily',
    currency,
    totals: totalsOf(current),
    trends: trendsOf(current, raw.previous),
    timeSeries,
    breakdown: keep ? keep.list(currency, breakdown) : breakdown,
    resultsByType,
  };
}

export type BreakdownLine = InsightsSummary['breakdown'][number];

/** Hands back kept breakdown lines (and lists) of one window and comparison, per currency shown. */
interface Keeper {
  line(currency: string, line: BreakdownLine): BreakdownLine;
  list(currency: string, lines: BreakdownLine[]): BreakdownLine[];
}

function keeperOf(kept: KeptLines<BreakdownLine>, q: InsightsQuery, compared: Window | null): Keeper {
  // The key only finds a line's earlier self; whether it is handed back is the lines' comparison.
  const window = `${q.from}|${q.to}|${compared ? `${compared.from}|${compared.to}` : '-'}`;
  return {
    line: (currency, line) => kept.keep(`${window}|${currency}|${line.entity.type}|${line.entity.id}`, line),
    list: (currency, lines) =>
      kept.keepList(`${window}|${currency}|${lines.length}|${lines[0]?.entity.id ?? ''}`, lines),
  };
}
