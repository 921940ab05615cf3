// /v1 API benchmark: throughput and p99 latency of GET /v1/campaigns?page_size=100 and
// GET /v1/insights/summary under 10 concurrent loopback connections, as ratios to a bare node:http
// server answering a fixed JSON body of the same size in the same run; and the insights summary's
// own latency over 1,000 campaigns × 365 days of daily insights (90-day window, the longest allowed).
// Under load the same URL is asked again and again, so the response cache (store unchanged) answers
// most of those; the cold figures ask a new URL every time and show the computation itself.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { addDays } from '../src/core/clock';
import { newId } from '../src/core/ids';
import { seedAccount, seedKey, seedWorkspace } from '../src/test-support/api-fixtures';
import { startTestApi } from '../src/test-support/api-server';
import { figure, percentile, type BenchFigure, type BenchSuite } from './harness';

interface AutocannonResult {
  requests: { average: number };
  latency: { p99: number; p50: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const CAMPAIGNS = 1000;
const DAYS = 365;
const TODAY = '2026-03-10';
const DURATION_S = Number(process.env.API_BENCH_SECONDS ?? 4);

async function load(url: string, headers: Record<string, string> = {}): Promise<AutocannonResult> {
  const result = await autocannon({ url, connections: 10, duration: DURATION_S, headers });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  }
  return result;
}

async function bareServer(body: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const suite: BenchSuite = {
  name: 'api',
  async run(): Promise<BenchFigure[]> {
    const t = await startTestApi({ now: `${TODAY}T12:00:00.000Z` });
    const db = t.core.db;
    const ws = seedWorkspace(db, { plan: 'agency' });
    const account = seedAccount(db, { workspaceId: ws.workspaceId, mode: 'live' });
    const big = 1e9;
    const { key } = await seedKey(db, t.clock, {
      workspaceId: ws.workspaceId,
      limitOverrides: { reads: big, writes: big, diagnostics: big, reports: big },
    });
    const seedStart = performance.now();
    const insertCampaign = db.prepare(
      `INSERT INTO campaigns (id, account_id, platform_campaign_id, name, status, effective_status, objective, buying_type,
         bid_strategy, daily_budget_micros, special_ad_categories, created_time, updated_time, last_synced_at, insights_synced_at)
       VALUES (?, ?, ?, ?, 'ACTIVE', 'ACTIVE', 'OUTCOME_SALES', 'AUCTION', 'LOWEST_COST_WITHOUT_CAP', 50000000, '[]',
         '2025-01-01T00:00:00+0000', '2026-03-01T00:00:00+0000', '2026-03-10T00:00:00.000Z', '2026-03-10T00:00:00.000Z')`,
    );
    const insertDay = db.prepare(
      `INSERT INTO insights_campaign_daily (campaign_id, date, account_id, spend_micros, impressions, clicks, conversions,
         revenue_micros, reach, frequency) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const dates = Array.from({ length: DAYS }, (_, i) => addDays(TODAY, i - DAYS + 1));
    db.transaction(() => {
      for (let c = 0; c < CAMPAIGNS; c++) {
        const id = newId('camp');
        insertCampaign.run(
          id,
          account.id,
          `2385${String(c).padStart(10, '0')}`,
          `Campaign ${String(c).padStart(4, '0')}`,
        );
        for (let d = 0; d < DAYS; d++) {
          const spend = 5_000_000 + ((c * 7919 + d * 104_729) % 50_000_000);
          const impressions = 1000 + ((c + d) % 900);
          insertDay.run(
            id,
            dates[d],
            account.id,
            spend,
            impressions,
            15 + (d % 20),
            (c + d) % 7,
            spend * 2,
            impressions - 200,
            1.2,
          );
        }
      }
    })();
    const seedMs = performance.now() - seedStart;
    const headers = { 'x-api-key': key };
    const figures: BenchFigure[] = [];
    try {
      const sample = await fetch(`${t.url}/v1/campaigns?page_size=100`, { headers });
      const sampleBody = await sample.text();
      if (sample.status !== 200)
        throw new Error(`campaigns list: ${sample.status} ${sampleBody.slice(0, 200)}`);
      const bare = await bareServer(sampleBody);
      try {
        // Warm both up so JIT and SQLite's page cache are equal for both.
        await autocannon({ url: bare.url, connections: 10, duration: 1 });
        await autocannon({
          url: `${t.url}/v1/campaigns?page_size=100`,
          connections: 10,
          duration: 1,
          headers,
        });
        // The summary's first answer computes a year of 1,000 campaigns; overload protection may shed
        // requests that arrive meanwhile, which is its job, not this figure's.
        await autocannon({ url: `${t.url}/v1/insights/summary`, connections: 1, duration: 1, headers });
        const baseline = await load(bare.url);
        const campaigns = await load(`${t.url}/v1/campaigns?page_size=100`, headers);
        const summary = await load(`${t.url}/v1/insights/summary`, headers);
        const base = { name: 'bare node:http, same body', value: baseline.requests.average };
        figures.push(
          figure({
            suite: 'api',
            name: 'bare node:http rps (10 connections)',
            value: baseline.requests.average,
            unit: 'req/s',
          }),
          figure({
            suite: 'api',
            name: 'GET /v1/campaigns?page_size=100 rps',
            value: campaigns.requests.average,
            unit: 'req/s',
            baseline: base,
            target: { op: '>=', value: 0.4, of: 'ratio' },
          }),
          figure({
            suite: 'api',
            name: 'GET /v1/campaigns?page_size=100 p99',
            value: campaigns.latency.p99,
            unit: 'ms',
            target: { op: '<=', value: 25, of: 'value' },
            note: `bare p99 ${baseline.latency.p99} ms`,
          }),
          figure({
            suite: 'api',
            name: 'GET /v1/insights/summary (7 days) rps',
            value: summary.requests.average,
            unit: 'req/s',
            baseline: base,
          }),
          figure({
            suite: 'api',
            name: 'GET /v1/insights/summary (7 days) p99',
            value: summary.latency.p99,
            unit: 'ms',
          }),
        );
      } finally {
        bare.server.close();
      }
      // Cold latencies, one request at a time, each URL new (so the response cache cannot answer):
      // the insights summary over the longest window (90 days) ending on 20 different days, and
      // campaign pages under different sorts.
      const cold = async (paths: string[]): Promise<number[]> => {
        const samples: number[] = [];
        for (const path of paths) {
          const started = performance.now();
          const res = await fetch(`${t.url}${path}`, { headers });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
          samples.push(performance.now() - started);
        }
        return samples;
      };
      const summaries = await cold(
        Array.from({ length: 20 }, (_, i) => {
          const end = addDays(TODAY, -i);
          return `/v1/insights/summary?date_start=${addDays(end, -89)}&date_end=${end}`;
        }),
      );
      const sorts = ['name', '-name', 'spend', '-spend', 'createdAt', '-updatedAt'];
      const pages = await cold(
        Array.from(
          { length: 20 },
          (_, i) => `/v1/campaigns?page_size=100&page=${(i % 10) + 1}&sort=${sorts[i % sorts.length]}`,
        ),
      );
      figures.push(
        figure({
          suite: 'api',
          name: `insights summary, ${CAMPAIGNS} campaigns × ${DAYS} days, 90-day window, cold (p50)`,
          value: percentile(summaries, 50),
          unit: 'ms',
          target: { op: '<=', value: 100, of: 'value' },
          note: `max ${Math.max(...summaries).toFixed(1)} ms; store seeded in ${(seedMs / 1000).toFixed(1)} s`,
        }),
        figure({
          suite: 'api',
          name: 'GET /v1/campaigns?page_size=100, cold (p50)',
          value: percentile(pages, 50),
          unit: 'ms',
          note: `max ${Math.max(...pages).toFixed(1)} ms`,
        }),
      );
    } finally {
      await t.close();
    }
    return figures;
  },
};

export default suite;
