// Diagnostics: accuracy against the default demo world's injected problems on seeds 101-103 (circular:
// those scenarios were shaped with the thresholds; the headline is bench/accuracy.bench.ts's held-out
// family), the latency of one campaign's diagnostic from the store, and of an account-level one.
import { addDays } from '../src/core/clock';
import { combineReports, scoreAccuracy, syncDemo, type SyncedDemo } from './accuracy/accuracy';
import { DEFAULT_PROFILE } from '../src/core/diagnostics/andromeda';
import { diagnose, loadFromDate } from '../src/core/diagnostics/engine';
import { campaignsWithDelivery, loadCampaigns } from '../src/core/diagnostics/load';
import { DiagnosticsService } from '../src/core/diagnostics/service';
import { figure, percentile, type BenchFigure, type BenchSuite } from './harness';

const SEEDS = [101, 102, 103];
const TODAY = '2026-03-15';
/** Diagnose the last 21 days: the demo injects problems 8-22 days before today (docs/diagnostics.md). */
const RANGE_DAYS = 21;
const learned = { profile: DEFAULT_PROFILE, customized: false, feedback: new Map() };

async function accuracyFigures(synced: SyncedDemo[]): Promise<BenchFigure[]> {
  const out: BenchFigure[] = [];
  const main = combineReports(await Promise.all(synced.map((s) => scoreAccuracy(s, RANGE_DAYS))));
  const note = `seeds ${main.seeds.join(',')}, ${main.campaigns} campaigns, last ${RANGE_DAYS} days`;
  for (const c of main.categories) {
    const counts = `tp ${c.truePositives} fp ${c.falsePositives} fn ${c.falseNegatives}`;
    out.push(
      figure({
        suite: 'diagnostics',
        name: `default world: precision ${c.category}`,
        value: c.precision ?? 0,
        unit: '',
        target: { op: '>=', value: 0.9, of: 'value' },
        note: counts,
      }),
      figure({
        suite: 'diagnostics',
        name: `default world: recall ${c.category}`,
        value: c.recall ?? 0,
        unit: '',
        target: { op: '>=', value: 0.9, of: 'value' },
        note: counts,
      }),
    );
  }
  out.push(
    figure({
      suite: 'diagnostics',
      name: 'default world: healthy campaigns flagged (false-positive rate)',
      value: main.healthyFalsePositiveRate,
      unit: '',
      target: { op: '<=', value: 0.05, of: 'value' },
      note: `${main.healthyFlagged} of ${main.healthy}; ${note}`,
    }),
    figure({
      suite: 'diagnostics',
      name: 'recommendations impossible for their campaign structure',
      value: main.impossibleRecommendations.length,
      unit: '',
      target: { op: '<=', value: 0, of: 'value' },
      note: `of ${main.recommendationsChecked} checked (structure.ts); ${note}`,
    }),
  );
  // The same seeds with a 14-day range, for information (the baseline then overlaps older onsets).
  const short = combineReports(await Promise.all(synced.map((s) => scoreAccuracy(s, 14))));
  const worst = (key: 'precision' | 'recall') => Math.min(...short.categories.map((c) => c[key] ?? 0));
  out.push(
    figure({
      suite: 'diagnostics',
      name: 'min precision over categories, 14-day range',
      value: worst('precision'),
      unit: '',
      note: 'informational',
    }),
    figure({
      suite: 'diagnostics',
      name: 'min recall over categories, 14-day range',
      value: worst('recall'),
      unit: '',
      note: 'informational',
    }),
    figure({
      suite: 'diagnostics',
      name: 'healthy false-positive rate, 14-day range',
      value: short.healthyFalsePositiveRate,
      unit: '',
      note: 'informational',
    }),
  );
  return out;
}

async function singleCampaignFigures(synced: SyncedDemo): Promise<BenchFigure[]> {
  const db = synced.core.db;
  const to = TODAY;
  const from = addDays(to, -89);
  const loadFrom = loadFromDate(from, to);
  // Campaigns of about 9 ads (8-10) with delivery over the 90 days.
  const ids = (
    db
      .prepare(
        `SELECT c.id FROM campaigns c JOIN ads a ON a.campaign_id = c.id
         WHERE EXISTS (SELECT 1 FROM insights_campaign_daily d WHERE d.campaign_id = c.id AND d.date >= ?)
         GROUP BY c.id HAVING count(a.id) BETWEEN 8 AND 10 ORDER BY c.id LIMIT 20`,
      )
      .all(from) as { id: string }[]
  ).map((r) => r.id);
  // The floor: reading the same daily rows (all three levels) as raw arrays, with no analysis.
  const rawReads = ['insights_ad_daily', 'insights_ad_set_daily', 'insights_campaign_daily'].map((table) =>
    db.prepare(`SELECT * FROM ${table} WHERE campaign_id = ? AND date BETWEEN ? AND ?`).raw(true),
  );
  const full: number[] = [];
  const floor: number[] = [];
  for (let round = 0; round < 10; round++) {
    for (const id of ids) {
      let t = performance.now();
      for (const read of rawReads) read.all(id, loadFrom, to);
      floor.push(performance.now() - t);
      t = performance.now();
      const campaigns = await loadCampaigns(synced.core.sql, [id], loadFrom, to);
      diagnose({ campaigns, from, to, learned });
      full.push(performance.now() - t);
    }
  }
  return [
    figure({
      suite: 'diagnostics',
      name: 'one campaign, 90 days, ~9 ads: load + diagnose p95',
      value: percentile(full, 95),
      unit: 'ms',
      baseline: { name: 'p95 raw read of its daily rows', value: percentile(floor, 95) },
      target: { op: '<=', value: 50, of: 'value' },
      note: `${ids.length} campaigns × 10 rounds; spec: 5-10 s`,
    }),
  ];
}

async function accountFigures(synced: SyncedDemo): Promise<BenchFigure[]> {
  const db = synced.core.db;
  const to = TODAY;
  const from = addDays(to, -29);
  const account = db
    .prepare(
      `SELECT a.id, a.workspace_id AS workspaceId, count(DISTINCT d.campaign_id) AS n FROM ad_accounts a
       JOIN insights_campaign_daily d ON d.account_id = a.id AND d.date BETWEEN ? AND ?
       GROUP BY a.id ORDER BY n DESC LIMIT 1`,
    )
    .get(from, to) as { id: string; workspaceId: string; n: number };
  const campaigns = (await campaignsWithDelivery(synced.core.sql, account.id, from, to)).length;
  const service = new DiagnosticsService(synced.core);
  const times: number[] = [];
  const processing: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const detail = await service.runNow(
      { workspaceId: account.workspaceId, userId: null },
      { accountId: account.id, campaignId: null, dateFrom: from, dateTo: to },
    );
    times.push(performance.now() - t);
    processing.push(detail.processingTimeMs ?? NaN);
  }
  await service.stop();
  return [
    figure({
      suite: 'diagnostics',
      name: `account-level, ${campaigns} campaigns, 30 days: create → completed (max of 5)`,
      value: Math.max(...times),
      unit: 'ms',
      baseline: { name: 'spec typical duration (5 s)', value: 5000 },
      target: { op: '<=', value: 1000, of: 'value' },
      note: `processingTimeMs max ${Math.max(...processing)}`,
    }),
  ];
}

const suite: BenchSuite = {
  name: 'diagnostics',
  async run() {
    const synced: SyncedDemo[] = [];
    try {
      for (const seed of SEEDS) synced.push(await syncDemo({ seed, today: TODAY }));
      const first = synced[0] as SyncedDemo;
      return [
        ...(await accuracyFigures(synced)),
        ...(await singleCampaignFigures(first)),
        ...(await accountFigures(first)),
      ];
    } finally {
      for (const s of synced) s.dispose();
    }
  },
};

export default suite;
