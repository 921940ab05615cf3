// A diagnostic's history, what changed since the previous one, and its dated evidence series, on a
// real store through the real App (diagnostics run by the engine, not inserted).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  seedAccount,
  seedAd,
  seedAdSet,
  seedCampaign,
  seedDailyInsights,
  seedWorkspace,
} from '../../test-support/api-fixtures';
import { startTestApi, type TestApi } from '../../test-support/api-server';
import type { RequestContext } from '../identity/access';
import type { DiagnosticDetail, Issue } from '../../shared/api/diagnostics';
import { compareDiagnostics, historyPoints } from './history';

let t: TestApi;
let ctx: RequestContext;
let other: RequestContext;
let accountId: string;
let campaignId: string;

beforeAll(async () => {
  t = await startTestApi({ now: '2026-03-10T12:00:00.000Z' });
  const db = t.core.db;
  const ws = seedWorkspace(db, { plan: 'agency' });
  ctx = { workspaceId: ws.workspaceId, plan: 'agency', userId: ws.ownerId, keyId: null, mode: 'all' };
  const ws2 = seedWorkspace(db, { plan: 'agency' });
  other = { workspaceId: ws2.workspaceId, plan: 'agency', userId: ws2.ownerId, keyId: null, mode: 'all' };
  accountId = seedAccount(db, { workspaceId: ws.workspaceId, mode: 'test', timezone: 'Asia/Tokyo' }).id;
  campaignId = seedCampaign(db, { accountId, name: 'Spring sale', dailyBudgetMicros: 200_000_000 });
  const adSetId = seedAdSet(db, { accountId, campaignId });
  seedAd(db, { accountId, campaignId, adSetId });
  seedDailyInsights(db, {
    accountId,
    campaignId,
    from: '2026-01-01',
    days: 69,
    row: (i) => ({
      spendMicros: 40_000_000,
      impressions: 1000,
      clicks: 20,
      conversions: i > 55 ? 0 : 4, // results collapse in the range: cost per result degrades
      revenueMicros: 0,
    }),
  });
});

afterAll(async () => {
  await t.close();
});

const issue = (type: Issue['type'], entityId: string, severity: Issue['severity']): Issue =>
  ({
    id: `issue_${entityId}`,
    type,
    severity,
    title: `${type} on ${entityId}`,
    description: '',
    affectedEntity: { type: 'adSet', id: entityId, name: entityId },
    evidence: {},
  }) as unknown as Issue;

const detail = (issues: Issue[]): DiagnosticDetail =>
  ({ id: 'diag_x', campaignId: 'camp_1', issues }) as unknown as DiagnosticDetail;

describe('compareDiagnostics', () => {
  it('tells new, resolved, worse and better issues apart by type and entity', () => {
    const before = detail([
      issue('PACING_ISSUE', 'a', 'LOW'),
      issue('CPA_DEGRADATION', 'b', 'HIGH'),
      issue('AUCTION_OVERLAP', 'c', 'MEDIUM'),
    ]);
    const now = detail([
      issue('PACING_ISSUE', 'a', 'HIGH'),
      issue('CPA_DEGRADATION', 'b', 'MEDIUM'),
      issue('AUCTION_OVERLAP', 'd', 'MEDIUM'),
    ]);
    const c = compareDiagnostics(now, before);
    expect(c.worsenedIssues.map((i) => [i.entity.id, i.previousSeverity, i.severity])).toEqual([
      ['a', 'LOW', 'HIGH'],
    ]);
    expect(c.improvedIssues.map((i) => i.entity.id)).toEqual(['b']);
    expect(c.newIssues.map((i) => i.entity.id)).toEqual(['d']);
    expect(c.resolvedIssues.map((i) => i.entity.id)).toEqual(['c']);
    expect(compareDiagnostics(now, null).newIssues).toHaveLength(3);
  });
});

describe('diagnostics.history, changes and evidence', () => {
  it('lists the campaign’s completed diagnostics newest first and compares each with the one before', async () => {
    const first = await t.app.use.diagnostics.runNow(ctx, { campaignId });
    t.clock.advance(60_000);
    const second = await t.app.use.diagnostics.runNow(ctx, { campaignId });
    const history = await t.app.use.diagnostics.history(ctx, { campaignId });
    expect(history.items.map((h) => h.id)).toEqual([second.id, first.id]);
    expect(history.items[0]).toMatchObject({ riskLevel: second.riskLevel, trigger: 'manual' });

    const firstChanges = await t.app.use.diagnostics.changes(ctx, first.id);
    expect(firstChanges.previous).toBeNull();
    expect(firstChanges.newIssues).toHaveLength(first.issues.length);
    const changes = await t.app.use.diagnostics.changes(ctx, second.id);
    expect(changes.previous?.id).toBe(first.id);
    // Same data, same engine: nothing changed.
    expect([...changes.newIssues, ...changes.resolvedIssues, ...changes.worsenedIssues]).toEqual([]);

    // The whole-account history is its own scope.
    expect((await t.app.use.diagnostics.history(ctx, { accountId })).items).toEqual([]);
  });

  it('gives each issue dated days (the account’s calendar) from the baseline’s start to the range’s end', async () => {
    const d = await t.app.use.diagnostics.runNow(ctx, { campaignId });
    expect(d.issues.length).toBeGreaterThan(0);
    const series = await t.app.use.diagnostics.evidence(ctx, d.id);
    expect(series.timezone).toBe('Asia/Tokyo');
    expect(series.range).toEqual(d.dateRange);
    expect(series.baseline.to < d.dateRange.from).toBe(true);
    const first = series.issues[d.issues[0]!.id]!;
    expect(first.days[0]?.date).toBe(series.baseline.from);
    expect(first.days.at(-1)?.date).toBe(d.dateRange.to);
    const rangeDays = (Date.parse(d.dateRange.to) - Date.parse(d.dateRange.from)) / 86_400_000 + 1;
    expect(first.days).toHaveLength(28 + rangeDays);
    // The campaign's own rows, zero-filled, in its baseline as in its range.
    const campaignEntry = Object.values(series.issues).find((e) => e.level === 'campaign');
    expect(campaignEntry?.entityId).toBe(campaignId);
    expect(campaignEntry?.days[0]).toMatchObject({ spend: 40, conversions: 4, cpa: 10, cpm: 40, ctr: 2 });
  });

  it('refuses another workspace', async () => {
    const d = (await t.app.use.diagnostics.history(ctx, { campaignId })).items[0]!;
    await expect(t.app.use.diagnostics.history(other, { campaignId })).rejects.toMatchObject({
      type: 'not_found',
    });
    await expect(t.app.use.diagnostics.changes(other, d.id)).rejects.toMatchObject({ type: 'not_found' });
    await expect(t.app.use.diagnostics.evidence(other, d.id)).rejects.toMatchObject({ type: 'not_found' });
  });
});

describe('the points of a history', () => {
  const row = (at: string, trigger: 'manual' | 'automatic' = 'automatic') => ({ completed_at: at, trigger });
  // An hourly diagnosis for 4 days (newest first), the last at 2026-03-10T12:00, and one asked for.
  const hourly = Array.from({ length: 96 }, (_, h) =>
    row(new Date(Date.parse('2026-03-10T12:00:00.000Z') - h * 3_600_000).toISOString()),
  );
  const manual = row('2026-03-08T09:30:00.000Z', 'manual');
  const rows = [...hourly, manual].sort((a, b) => b.completed_at.localeCompare(a.completed_at));

  it('keeps the last 24 hours whole, then the last of each earlier day and every one asked for', () => {
    const points = historyPoints(rows, 50);
    const at = points.map((p) => p.completed_at);
    // 25 points of the 24 hours up to the newest (both ends; Mar 9 has its points there), then the last
    // of each earlier day (23:00) and the analyst's run.
    expect(at.slice(0, 25)).toEqual(hourly.slice(0, 25).map((r) => r.completed_at));
    expect(at.slice(25)).toEqual([
      '2026-03-08T23:00:00.000Z',
      '2026-03-08T09:30:00.000Z',
      '2026-03-07T23:00:00.000Z',
      '2026-03-06T23:00:00.000Z',
    ]);
    expect(historyPoints(rows, 10)).toHaveLength(10);
    expect(historyPoints([], 50)).toEqual([]);
  });
});
