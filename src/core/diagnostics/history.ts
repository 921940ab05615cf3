// A diagnostic's history read models: the past diagnostics of its scope, what changed since the one
// before it (issues matched on type, entity and campaign), and the dated daily series behind each
// issue's chart, from the start of the baseline window to the end of the range.
import { addDays, dateRange } from '../clock';
import type { Sql } from '../store/sql';
import type { DiagnosticDetail, Issue, RiskLevel } from '../../shared/api/diagnostics';
import { RISK_LEVELS } from '../../shared/api/diagnostics';
import type {
  DiagnosticChanges,
  EvidenceDay,
  EvidenceSeries,
  IssueRef,
} from '../../shared/api/diagnostic-history';
import { entityDays, type SeriesLevel, type SeriesRow } from './history-store';
import { THRESHOLD_TABLE } from './thresholds';

const keyOf = (i: Issue): string => `${i.type}\u0000${i.campaignId ?? ''}\u0000${i.affectedEntity.id}`;
const rank = (s: RiskLevel): number => RISK_LEVELS.indexOf(s);

function refOf(i: Issue, campaignId: string | null): IssueRef {
  return {
    type: i.type,
    title: i.title,
    severity: i.severity,
    entity: i.affectedEntity,
    campaignId: i.campaignId ?? campaignId,
  };
}

/** The hours before the newest diagnosis that a history shows whole. */
const WHOLE_HOURS = 24;

/**
 * The points of a scope's history, newest first: every diagnosis of the 24 hours up to the newest,
 * then of each earlier UTC day the last one, and every one an analyst asked for; at most `limit`.
 * The watcher re-diagnoses an account after each hourly sync, so 50 points taken as they come span two
 * days; taken this way they span weeks (the thinning keeps one a day past 3 days: watch/retention.ts).
 */
export function historyPoints<T extends { completed_at: string; trigger: 'manual' | 'automatic' }>(
  newestFirst: readonly T[],
  limit: number,
): T[] {
  const newest = newestFirst[0];
  if (!newest) return [];
  const whole = new Date(Date.parse(newest.completed_at) - WHOLE_HOURS * 3_600_000).toISOString();
  const days = new Set<string>();
  const points: T[] = [];
  for (const row of newestFirst) {
    if (points.length >= limit) break;
    const day = row.completed_at.slice(0, 10);
    const firstOfDay = !days.has(day);
    days.add(day);
    if (row.completed_at >= whole || firstOfDay || row.trigger === 'manual') points.push(row);
  }
  return points;
}

/** New, resolved, worse and better issues of `current` against `previous` (null: all are new). */
export function compareDiagnostics(
  current: DiagnosticDetail,
  previous: DiagnosticDetail | null,
): Omit<DiagnosticChanges, 'diagnosticId' | 'previous'> {
  const before = new Map((previous?.issues ?? []).map((i) => [keyOf(i), i]));
  const now = new Map(current.issues.map((i) => [keyOf(i), i]));
  const out: Omit<DiagnosticChanges, 'diagnosticId' | 'previous'> = {
    newIssues: [],
    resolvedIssues: [],
    worsenedIssues: [],
    improvedIssues: [],
  };
  for (const [key, issue] of now) {
    const old = before.get(key);
    if (!old) out.newIssues.push(refOf(issue, current.campaignId));
    else if (rank(issue.severity) > rank(old.severity))
      out.worsenedIssues.push({ ...refOf(issue, current.campaignId), previousSeverity: old.severity });
    else if (rank(issue.severity) < rank(old.severity))
      out.improvedIssues.push({ ...refOf(issue, current.campaignId), previousSeverity: old.severity });
  }
  if (previous) {
    for (const [key, issue] of before)
      if (!now.has(key)) out.resolvedIssues.push(refOf(issue, previous.campaignId));
  }
  return out;
}

/** The entity an issue's chart follows: the ad a fatigue issue names, else the affected entity. */
function entityOf(issue: Issue, d: DiagnosticDetail): { level: SeriesLevel; id: string; name: string } {
  if (issue.type === 'CREATIVE_FATIGUE' && issue.evidence.ad) {
    return { level: 'ad', id: issue.evidence.ad.id, name: issue.evidence.ad.name };
  }
  const e = issue.affectedEntity;
  if (e.type === 'adSet') return { level: 'adSet', id: e.id, name: e.name };
  if (e.type === 'account') return { level: 'account', id: d.accountId, name: e.name };
  return { level: 'campaign', id: issue.campaignId ?? d.campaignId ?? e.id, name: e.name };
}

const round = (v: number, decimals: number): number => Math.round(v * 10 ** decimals) / 10 ** decimals;

function dayOf(date: string, r: SeriesRow | undefined): EvidenceDay {
  const spend = (r?.spend_micros ?? 0) / 1_000_000;
  const impressions = r?.impressions ?? 0;
  const conversions = r?.conversions ?? 0;
  const reach = r?.reach ?? 0;
  return {
    date,
    spend: round(spend, 2),
    impressions,
    conversions,
    reach,
    cpa: conversions > 0 ? round(spend / conversions, 2) : null,
    cpm: impressions > 0 ? round((spend / impressions) * 1000, 2) : null,
    ctr: impressions > 0 ? round(((r?.clicks ?? 0) / impressions) * 100, 2) : null,
    frequency: reach > 0 ? round(impressions / reach, 2) : null,
  };
}

/** Dated series per issue, zero-filled, over the baseline window and the diagnostic's range. */
export async function evidenceSeries(
  sql: Sql,
  d: DiagnosticDetail,
  timezone: string,
): Promise<EvidenceSeries> {
  const baseline = {
    from: addDays(d.dateRange.from, -THRESHOLD_TABLE.baselineDays.value),
    to: addDays(d.dateRange.from, -1),
  };
  const days = dateRange(baseline.from, d.dateRange.to);
  const issues: EvidenceSeries['issues'] = {};
  const cache = new Map<string, EvidenceDay[]>();
  for (const issue of d.issues) {
    const entity = entityOf(issue, d);
    const key = `${entity.level}:${entity.id}`;
    let series = cache.get(key);
    if (!series) {
      const rows = new Map(
        (await entityDays(sql, entity.level, entity.id, baseline.from, d.dateRange.to)).map((r) => [
          r.date,
          r,
        ]),
      );
      series = days.map((date) => dayOf(date, rows.get(date)));
      cache.set(key, series);
    }
    issues[issue.id] = { level: entity.level, entityId: entity.id, entityName: entity.name, days: series };
  }
  return { diagnosticId: d.id, timezone, baseline, range: d.dateRange, issues };
}
