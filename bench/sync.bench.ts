// Sync benchmark: full and incremental sync of a 100-campaign demo account over loopback, the writer's
// bulk upsert rate against raw better-sqlite3 inserts measured in the same run, and peak RSS of a
// process syncing a 1,000-campaign account. The demo platform runs in a child process, as Meta would
// be another machine: its CPU is not ours.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { createCore, type Core } from '../src/core/core';
import { createWorkspace } from '../src/core/identity/workspaces';
import { GraphClient } from '../src/core/platform/graph-client';
import type { PlatformInsightRow } from '../src/core/platform/parse';
import { SyncService } from '../src/core/sync/service';
import { openTeamCore } from '../src/core/team-core';
import { startTestPostgres, writeTeamKeyFile } from '../src/test-support/postgres';
import { loadObjectMaps, SyncWriter } from '../src/core/sync/upserts';
import { figure, type BenchFigure, type BenchSuite } from './harness';

const FULL_SYNC = 'full sync, 100-campaign account, 90 days (loopback)';
const ROOT = join(import.meta.dirname, '..');
const TSX = ['--import', 'tsx'];

interface DemoChild {
  url: string;
  apiVersion: string;
  child: ChildProcess;
}

async function startDemoChild(largeAccountCampaigns: number, latencyMs = 0): Promise<DemoChild> {
  const child = spawn(
    process.execPath,
    [
      ...TSX,
      'src/cli/index.ts',
      'demo-platform',
      '--port',
      '0',
      '--json',
      '--large-account-campaigns',
      String(largeAccountCampaigns),
      '--latency',
      String(latencyMs),
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const info = JSON.parse(line) as { url: string; apiVersion: string };
    return { url: info.url, apiVersion: info.apiVersion, child };
  }
  throw new Error('the demo platform child exited before printing its URL');
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
}

/** The US account of the demo agency is the one whose size largeAccountCampaigns sets. */
async function largeAccountId(demo: DemoChild): Promise<string> {
  const client = new GraphClient({ baseUrl: demo.url, apiVersion: demo.apiVersion, token: 'demo-token' });
  for await (const page of client.listAdAccounts()) {
    const hit = page.find((a) => a.timezone_name === 'America/Los_Angeles' && a.currency === 'USD');
    if (hit) return hit.id;
  }
  throw new Error('no large demo account found');
}

/** A sync service on `core` with the demo account connected in a new workspace. */
async function connectOn(core: Core, demo: DemoChild, platformAccountId: string) {
  const sync = new SyncService(core, {
    demoPlatform: async () => ({ url: demo.url, apiVersion: demo.apiVersion }),
  });
  const workspace = await createWorkspace(core.sql, { name: 'Bench', plan: 'agency' });
  const account = await sync.connectAccount({
    workspaceId: workspace.id,
    platformAccountId,
    baseUrl: 'demo:',
    token: 'demo-token',
  });
  return { sync, account };
}

async function connected(demo: DemoChild, platformAccountId: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'adlens-bench-sync-'));
  const core = createCore({ dataDir });
  const { sync, account } = await connectOn(core, demo, platformAccountId);
  return {
    core,
    sync,
    account,
    dispose: async () => {
      await sync.stop();
      core.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function syncTimes(): Promise<BenchFigure[]> {
  const demo = await startDemoChild(100);
  try {
    const platformAccountId = await largeAccountId(demo);
    // A warm-up run so the platform's lazily generated history and our JIT are both warm.
    const warm = await connected(demo, platformAccountId);
    await warm.sync.syncAccount(warm.account.id, { kind: 'full' });
    await warm.dispose();

    const { core, sync, account, dispose } = await connected(demo, platformAccountId);
    let t = performance.now();
    const cpuBefore = process.cpuUsage();
    const full = await sync.syncAccount(account.id, { kind: 'full' });
    const fullMs = performance.now() - t;
    const cpu = process.cpuUsage(cpuBefore);
    if (full.status !== 'completed')
      throw new Error(`full sync ${full.status}: ${full.error?.message ?? ''}`);
    t = performance.now();
    const incremental = await sync.syncAccount(account.id, { kind: 'incremental' });
    const incrementalMs = performance.now() - t;
    if (incremental.status !== 'completed') throw new Error(`incremental sync ${incremental.status}`);
    const ads = core.db
      .prepare(`SELECT count(*) FROM ads WHERE account_id = ?`)
      .pluck()
      .get(account.id) as number;
    const rows = full.stats!.insightRows;
    await dispose();
    const note = `${full.stats!.campaigns} campaigns, ${ads} ads, ${rows.campaign + rows.adSet + rows.ad} insight rows, ${full.stats!.requests} requests`;
    return [
      figure({
        suite: 'sync',
        name: FULL_SYNC,
        value: fullMs,
        unit: 'ms',
        target: { op: '<=', value: 5_000, of: 'value' },
        note,
      }),
      figure({
        suite: 'sync',
        name: 'full sync: CPU time of the syncing process',
        value: (cpu.user + cpu.system) / 1000,
        unit: 'ms',
        note: 'the rest of the wall time is the demo platform generating pages',
      }),
      figure({
        suite: 'sync',
        name: 'incremental sync (28-day re-read) vs full',
        value: incrementalMs,
        unit: 'ms',
        baseline: { name: 'full sync', value: fullMs },
        target: { op: '<=', value: 0.2, of: 'ratio' },
        note: `${incremental.stats!.requests} requests`,
      }),
      figure({
        suite: 'sync',
        name: 'Graph calls per full sync of the 100-campaign account',
        value: full.stats!.requests,
        unit: 'calls',
        note: `${full.stats!.insightChunks} insight queries, ${full.stats!.asyncReports} async reports`,
      }),
    ];
  } finally {
    await stopChild(demo.child);
  }
}

/**
 * The same full sync into a team server's PostgreSQL (a server the bench starts from npm, as the tests
 * do), against the SQLite one measured in the same run: what an agency's first sync of an account
 * costs on the team server, where every upsert is a round trip.
 */
export async function syncTimesPostgres(sqliteFullMs: number): Promise<BenchFigure[]> {
  const demo = await startDemoChild(100);
  const server = await startTestPostgres();
  const keyDir = mkdtempSync(join(tmpdir(), 'adlens-bench-sync-key-'));
  try {
    const platformAccountId = await largeAccountId(demo);
    const core = await openTeamCore({
      databaseUrl: await server.createDatabase(),
      env: { ADLENS_SECRET_KEY_FILE: writeTeamKeyFile(keyDir) },
      jobsRun: 'here',
    });
    try {
      const { sync, account } = await connectOn(core, demo, platformAccountId);
      try {
        const t = performance.now();
        const full = await sync.syncAccount(account.id, { kind: 'full' });
        const ms = performance.now() - t;
        if (full.status !== 'completed')
          throw new Error(`full sync on PostgreSQL ${full.status}: ${full.error?.message ?? ''}`);
        const rows = full.stats!.insightRows;
        return [
          figure({
            suite: 'sync',
            name: 'full sync, 100-campaign account, 90 days, into PostgreSQL (loopback)',
            value: ms,
            unit: 'ms',
            baseline: { name: 'the same sync into SQLite, this run', value: sqliteFullMs },
            note: `${rows.campaign + rows.adSet + rows.ad} insight rows, ${full.stats!.requests} requests`,
          }),
        ];
      } finally {
        await sync.stop();
      }
    } finally {
      await core.close();
    }
  } finally {
    await server.stop();
    rmSync(keyDir, { recursive: true, force: true });
    await stopChild(demo.child);
  }
}

/** A full sync of the 100-campaign account when every Graph call takes 300 ms (Meta from afar). */
export async function syncUnderLatency(): Promise<BenchFigure[]> {
  const demo = await startDemoChild(100, 300);
  try {
    const platformAccountId = await largeAccountId(demo);
    const { sync, account, dispose } = await connected(demo, platformAccountId);
    const t = performance.now();
    const full = await sync.syncAccount(account.id, { kind: 'full' });
    const ms = performance.now() - t;
    await dispose();
    if (full.status !== 'completed')
      throw new Error(`full sync ${full.status}: ${full.error?.message ?? ''}`);
    return [
      figure({
        suite: 'sync',
        name: 'full sync with 300 ms latency per call, 100-campaign account',
        value: ms,
        unit: 'ms',
        target: { op: '<=', value: 10_000, of: 'value' },
        note: `${full.stats!.requests} calls, ${full.stats!.insightChunks} insight queries`,
      }),
    ];
  } finally {
    await stopChild(demo.child);
  }
}

/** Writer upserts of ad-level insight rows vs raw prepared inserts into a plain table, same rows. */
export async function upsertRate(): Promise<BenchFigure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'adlens-bench-upsert-'));
  const core = createCore({ dataDir });
  const workspace = await createWorkspace(core.sql, { name: 'Bench', plan: 'agency' });
  const db = core.db;
  const accountId = 'act_BenchAccount0001';
  db.prepare(
    `INSERT INTO platform_connections (id, workspace_id, base_url, api_version, mode, token_encrypted, created_at, updated_at)
     VALUES ('conn_bench', ?, 'demo:', 'v25.0', 'test', x'00', 'now', 'now')`,
  ).run(workspace.id);
  db.prepare(
    `INSERT INTO ad_accounts (id, workspace_id, connection_id, platform_account_id, mode, name, currency, timezone, status, connected_at)
     VALUES (?, ?, 'conn_bench', 'act_1', 'test', 'Bench', 'USD', 'UTC', 'active', 'now')`,
  ).run(accountId, workspace.id);
  const writer = new SyncWriter(core.sql, accountId, 'USD');
  const campaigns = 100;
  const adsPerCampaign = 9;
  await writer.campaigns(
    Array.from({ length: campaigns }, (_, c) => ({
      id: `c${c}`,
      name: `C${c}`,
      status: 'ACTIVE',
      objective: 'OUTCOME_SALES',
      buying_type: 'AUCTION',
      special_ad_categories: [],
      created_time: '2026-01-01T00:00:00+0000',
    })),
    'now',
  );
  let maps = await loadObjectMaps(core.sql, accountId);
  await writer.adSets(
    Array.from({ length: campaigns }, (_, c) => ({
      id: `s${c}`,
      campaign_id: `c${c}`,
      name: `S${c}`,
      status: 'ACTIVE',
      created_time: '2026-01-01T00:00:00+0000',
    })),
    maps,
    'now',
    '2026-03-15',
  );
  maps = await loadObjectMaps(core.sql, accountId);
  await writer.ads(
    Array.from({ length: campaigns * adsPerCampaign }, (_, a) => ({
      id: `a${a}`,
      adset_id: `s${Math.floor(a / adsPerCampaign)}`,
      campaign_id: `c${Math.floor(a / adsPerCampaign)}`,
      name: `A${a}`,
      status: 'ACTIVE',
      created_time: '2026-01-01T00:00:00+0000',
    })),
    maps,
    'now',
  );
  maps = await loadObjectMaps(core.sql, accountId);
  const rows: PlatformInsightRow[] = [];
  for (let day = 0; day < 90; day += 1) {
    const date = new Date(Date.UTC(2026, 0, 1 + day)).toISOString().slice(0, 10);
    for (let a = 0; a < campaigns * adsPerCampaign; a += 1) {
      rows.push({
        ad_id: `a${a}`,
        adset_id: `s${Math.floor(a / adsPerCampaign)}`,
        campaign_id: `c${Math.floor(a / adsPerCampaign)}`,
        date_start: date,
        spend: '12.34',
        impressions: '1000',
        clicks: '25',
        reach: '800',
        frequency: '1.25',
        actions: [
          { action_type: 'purchase', value: '3' },
          { action_type: 'omni_purchase', value: '3' },
        ],
        action_values: [{ action_type: 'omni_purchase', value: '75.50' }],
      });
    }
  }
  const PAGE = 1_000; // the sync's insight page size
  let t = performance.now();
  for (let i = 0; i < rows.length; i += PAGE) await writer.insights('ad', rows.slice(i, i + PAGE), maps);
  const writerMs = performance.now() - t;

  // The baseline: raw prepared INSERTs of precomputed values into a table of the same shape (columns,
  // primary key, secondary index), without parsing, upsert clauses or foreign keys.
  const raw = new Database(join(dataDir, 'raw.sqlite'));
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.exec(`CREATE TABLE plain (ad_id TEXT NOT NULL, date TEXT NOT NULL, account_id TEXT NOT NULL,
    campaign_id TEXT NOT NULL, ad_set_id TEXT NOT NULL, spend_micros INTEGER NOT NULL, impressions INTEGER NOT NULL,
    clicks INTEGER NOT NULL, conversions INTEGER NOT NULL, revenue_micros INTEGER NOT NULL, reach INTEGER NOT NULL,
    frequency REAL NOT NULL, PRIMARY KEY (ad_id, date)) WITHOUT ROWID;
    CREATE INDEX plain_campaign_date ON plain(campaign_id, date);`);
  const insert = raw.prepare(`INSERT INTO plain VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const ids = [...maps.ads.entries()].map(([platformId, ad]) => [platformId, ad] as const);
  const serviceIds = new Map(ids);
  const precomputed = rows.map((r) => {
    const ad = serviceIds.get(r.ad_id ?? '')!;
    return [
      ad.id,
      r.date_start,
      accountId,
      ad.campaignId,
      ad.adSetId,
      12_340_000,
      1000,
      25,
      3,
      75_500_000,
      800,
      1.25,
    ] as const;
  });
  const page = raw.transaction((slice: (typeof precomputed)[number][]) => {
    for (const values of slice) insert.run(...values);
  });
  t = performance.now();
  for (let i = 0; i < precomputed.length; i += PAGE) page(precomputed.slice(i, i + PAGE));
  const rawMs = performance.now() - t;
  raw.close();
  core.close();
  rmSync(dataDir, { recursive: true, force: true });
  const writerRate = rows.length / (writerMs / 1000);
  const rawRate = rows.length / (rawMs / 1000);
  return [
    figure({
      suite: 'sync',
      name: 'insight upsert rate (parse + upsert, 1,000-row pages)',
      value: writerRate,
      unit: 'rows/s',
      baseline: { name: 'raw prepared inserts, same table shape', value: rawRate },
      target: { op: '>=', value: 0.5, of: 'ratio' },
      note: `${rows.length} rows`,
    }),
  ];
}

/** Peak RSS of a separate process running a full sync of a 1,000-campaign account. */
export async function peakRss(): Promise<BenchFigure[]> {
  const demo = await startDemoChild(1_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'adlens-bench-rss-'));
  try {
    const platformAccountId = await largeAccountId(demo);
    const core = createCore({ dataDir });
    const sync = new SyncService(core, { demoPlatform: async () => demo });
    const workspace = await createWorkspace(core.sql, { name: 'Bench', plan: 'agency' });
    const account = await sync.connectAccount({
      workspaceId: workspace.id,
      platformAccountId,
      baseUrl: 'demo:',
      token: 'demo-token',
    });
    await sync.stop();
    core.close();
    const child = spawn(
      process.execPath,
      [...TSX, 'src/test-support/sync-child.ts', dataDir, account.id, demo.url, demo.apiVersion],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    type Done = { event: string; status: string; ms: number; maxRssKb: number };
    let done: Done | undefined;
    for await (const line of createInterface({ input: child.stdout! })) {
      const event = JSON.parse(line) as Done;
      if (event.event === 'done') done = event;
    }
    if (!done || done.status !== 'completed')
      throw new Error(`large sync did not complete: ${JSON.stringify(done)}`);
    return [
      figure({
        suite: 'sync',
        name: 'peak RSS, full sync of a 1,000-campaign account',
        value: done.maxRssKb / 1024,
        unit: 'MB',
        target: { op: '<=', value: 400, of: 'value' },
        note: `${Math.round(done.ms)} ms`,
      }),
    ];
  } finally {
    await stopChild(demo.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const suite: BenchSuite = {
  name: 'sync',
  async run() {
    const times = await syncTimes();
    const sqliteFull = times.find((f) => f.name === FULL_SYNC)?.value ?? NaN;
    return [
      ...times,
      ...(await syncTimesPostgres(sqliteFull)),
      ...(await syncUnderLatency()),
      ...(await upsertRate()),
      ...(await peakRss()),
    ];
  },
};

export default suite;
