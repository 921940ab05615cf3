// Accuracy as a measured property: the demo platform injects known problems, the sync engine fills
// a temp store from it, the engine diagnoses every evaluated campaign, and detected categories are
// compared with the ground truth (precision and recall per category, false positives on healthy ones).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DETECTOR_ISSUE_TYPES as ISSUE_TYPES, type IssueType } from '../../src/shared/api/diagnostics';
import { addDays, fixedClock } from '../../src/core/clock';
import { createCore, type Core } from '../../src/core/core';
import { groundTruth, startDemoPlatform, type GroundTruthEntry } from '../../src/core/demo-platform/index';
import { createWorkspace } from '../../src/core/identity/workspaces';
import { GraphClient } from '../../src/core/platform/graph-client';
import { canConnect } from '../../src/core/platform/parse';
import { SyncService } from '../../src/core/sync/service';
import { DEFAULT_PROFILE, type Learned } from '../../src/core/diagnostics/andromeda';
import { diagnose, loadFromDate } from '../../src/core/diagnostics/engine';
import { loadCampaigns } from '../../src/core/diagnostics/load';
import { isPossible, structureOf, type Change } from '../../src/core/diagnostics/structure';

export interface CategoryScore {
  category: IssueType;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number | null;
  recall: number | null;
}

export interface AccuracyReport {
  seed: number;
  today: string;
  rangeDays: number;
  campaigns: number;
  healthy: number;
  healthyFlagged: number;
  healthyFalsePositiveRate: number;
  categories: CategoryScore[];
  /** Recommendations in the whole output that the campaign's structure does not allow (target 0). */
  impossibleRecommendations: { campaign: string; action: string; reason: string }[];
  recommendationsChecked: number;
  /** Per campaign: what was injected and what was found (for error analysis). */
  outcomes: {
    campaignId: string;
    name: string;
    truth: string;
    detected: IssueType[];
    /** Each detected type's first issue description (what the analyst reads). */
    descriptions: Partial<Record<IssueType, string>>;
  }[];
}

export interface SyncedDemo {
  core: Core;
  seed: number;
  today: string;
  truth: GroundTruthEntry[];
  /** platform campaign ID → service campaign ID. */
  campaignIds: Map<string, string>;
  dispose(): void;
}

/** Starts the demo platform for a seed, syncs every connectable account into a temp store, and stops the platform. */
export async function syncDemo(opts: {
  seed: number;
  today: string;
  largeAccountCampaigns?: number;
}): Promise<SyncedDemo> {
  const demo = await startDemoPlatform({
    port: 0,
    seed: opts.seed,
    today: opts.today,
    ...(opts.largeAccountCampaigns ? { largeAccountCampaigns: opts.largeAccountCampaigns } : {}),
  });
  const dir = mkdtempSync(join(tmpdir(), 'adlens-accuracy-'));
  const core = createCore({ dataDir: dir, clock: fixedClock(`${opts.today}T20:00:00Z`) });
  try {
    const sync = new SyncService(core, {
      demoPlatform: async () => ({ url: demo.url, apiVersion: demo.apiVersion }),
      client: { sleep: async () => {}, backoffBaseMs: 1 },
    });
    const workspace = await createWorkspace(core.sql, { name: 'Accuracy', plan: 'agency' });
    const client = new GraphClient({ baseUrl: demo.url, apiVersion: demo.apiVersion, token: 'demo-token' });
    for await (const page of client.listAdAccounts()) {
      for (const account of page) {
        if (!canConnect(account)) continue;
        const row = await sync.connectAccount({
          workspaceId: workspace.id,
          platformAccountId: account.id,
          baseUrl: demo.url,
          apiVersion: demo.apiVersion,
          token: 'demo-token',
          mode: 'test',
        });
        const outcome = await sync.syncAccount(row.id);
        if (outcome.status !== 'completed')
          throw new Error(`sync of ${account.id} ${outcome.status}: ${outcome.error?.message ?? ''}`);
      }
    }
    await sync.stop();
  } finally {
    await demo.close();
  }
  const campaignIds = new Map(
    (
      core.db.prepare(`SELECT platform_campaign_id AS p, id FROM campaigns`).all() as {
        p: string;
        id: string;
      }[]
    ).map((r) => [r.p, r.id]),
  );
  return {
    core,
    seed: opts.seed,
    today: opts.today,
    truth: groundTruth({
      seed: opts.seed,
      today: opts.today,
      ...(opts.largeAccountCampaigns ? { largeAccountCampaigns: opts.largeAccountCampaigns } : {}),
    }),
    campaignIds,
    dispose: () => {
      core.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const DEFAULT_LEARNED: Learned = { profile: DEFAULT_PROFILE, customized: false, feedback: new Map() };

/** Diagnoses each ground-truth campaign over the last `rangeDays` days and scores the categories found. */
export async function scoreAccuracy(synced: SyncedDemo, rangeDays: number): Promise<AccuracyReport> {
  const to = synced.today;
  const from = addDays(to, -(rangeDays - 1));
  const loadFrom = loadFromDate(from, to);
  const outcomes: AccuracyReport['outcomes'] = [];
  const counts = new Map(ISSUE_TYPES.map((c) => [c, { tp: 0, fp: 0, fn: 0 }]));
  let healthy = 0;
  let healthyFlagged = 0;
  const impossible: AccuracyReport['impossibleRecommendations'] = [];
  let checked = 0;
  for (const entry of synced.truth) {
    const id = synced.campaignIds.get(entry.platformCampaignId);
    if (!id) throw new Error(`campaign ${entry.platformCampaignId} of the ground truth was not synced`);
    const [data] = await loadCampaigns(synced.core.sql, [id], loadFrom, to);
    if (!data) continue;
    const content = diagnose({ campaigns: [data], from, to, learned: DEFAULT_LEARNED });
    const detected = [...new Set(content.issues.map((i) => i.type))].sort();
    // Every recommendation offered must be possible on its campaign's structure.
    const blocked = new Set(content.issues.some((i) => i.type === 'DELIVERY_BLOCKED') ? [data.id] : []);
    const structure = structureOf([data], blocked);
    for (const r of content.recommendations) {
      checked += 1;
      const fixesDelivery = content.actionKinds[r.id] === 'FIX_DELIVERY_BLOCKER';
      const verdict = isPossible({ changes: (r.changes ?? []) as Change[], fixesDelivery }, structure);
      if (!verdict.ok) impossible.push({ campaign: data.name, action: r.action, reason: verdict.reason });
    }
    const descriptions: Partial<Record<IssueType, string>> = {};
    for (const i of content.issues) descriptions[i.type] ??= i.description;
    outcomes.push({
      campaignId: entry.platformCampaignId,
      name: data.name,
      truth: entry.category,
      detected,
      descriptions,
    });
    if (entry.category === 'HEALTHY') {
      healthy += 1;
      if (detected.length > 0) healthyFlagged += 1;
    }
    for (const category of ISSUE_TYPES) {
      const c = counts.get(category);
      if (!c) continue;
      const isTrue = entry.category === category;
      const found = detected.includes(category);
      if (isTrue && found) c.tp += 1;
      else if (found) c.fp += 1;
      else if (isTrue) c.fn += 1;
    }
  }
  return {
    seed: synced.seed,
    today: synced.today,
    rangeDays,
    campaigns: outcomes.length,
    healthy,
    healthyFlagged,
    healthyFalsePositiveRate: healthy > 0 ? healthyFlagged / healthy : 0,
    impossibleRecommendations: impossible,
    recommendationsChecked: checked,
    categories: ISSUE_TYPES.map((category) => {
      const c = counts.get(category) ?? { tp: 0, fp: 0, fn: 0 };
      return {
        category,
        truePositives: c.tp,
        falsePositives: c.fp,
        falseNegatives: c.fn,
        precision: c.tp + c.fp > 0 ? c.tp / (c.tp + c.fp) : null,
        recall: c.tp + c.fn > 0 ? c.tp / (c.tp + c.fn) : null,
      };
    }),
    outcomes,
  };
}

/** Sums several seeds' reports (micro-averaged precision and recall). */
export function combineReports(
  reports: readonly AccuracyReport[],
): Omit<AccuracyReport, 'seed' | 'today' | 'outcomes'> & { seeds: number[] } {
  const categories = ISSUE_TYPES.map((category) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const r of reports) {
      const c = r.categories.find((x) => x.category === category);
      tp += c?.truePositives ?? 0;
      fp += c?.falsePositives ?? 0;
      fn += c?.falseNegatives ?? 0;
    }
    return {
      category,
      truePositives: tp,
      falsePositives: fp,
      falseNegatives: fn,
      precision: tp + fp > 0 ? tp / (tp + fp) : null,
      recall: tp + fn > 0 ? tp / (tp + fn) : null,
    };
  });
  const healthy = reports.reduce((a, r) => a + r.healthy, 0);
  const healthyFlagged = reports.reduce((a, r) => a + r.healthyFlagged, 0);
  return {
    seeds: reports.map((r) => r.seed),
    rangeDays: reports[0]?.rangeDays ?? 0,
    campaigns: reports.reduce((a, r) => a + r.campaigns, 0),
    healthy,
    healthyFlagged,
    healthyFalsePositiveRate: healthy > 0 ? healthyFlagged / healthy : 0,
    impossibleRecommendations: reports.flatMap((r) => r.impossibleRecommendations),
    recommendationsChecked: reports.reduce((a, r) => a + r.recommendationsChecked, 0),
    categories,
  };
}
