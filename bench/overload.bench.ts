// Overload: uncached reads of /v1 (campaign pages, account, campaign detail, insights summary) under
// 100 and 200 concurrent loopback clients, with the response cache off so every answer is computed.
// Targets: p99 ≤ 100 ms at 100 clients; at 200 clients for 30 s (the hardening issue's case), no client time-out (10 s) and only
// the spec's envelope (200 with data, or 429 rate_limit_error with a retry hint when shedding). The
// same load on the cached path (cache on) is the baseline of the ratios.
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { figure, type BenchFigure, type BenchSuite } from './harness';

interface Result {
  requests: { average: number; total: number };
  latency: { p99: number; p50: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
interface Request {
  method: 'GET';
  path: string;
  headers: Record<string, string>;
  onResponse?: (status: number, body: string) => void;
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  timeout?: number;
  requests: Request[];
}) => Promise<Result>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

interface Served {
  url: string;
  key: string;
  accountId: string;
  campaignIds: string[];
}

const SECONDS = Number(process.env.OVERLOAD_BENCH_SECONDS ?? 8);

/** A mix of reads, each URL different from the last; with the cache off every one is computed. */
function mix(key: string, accountId: string, campaignIds: string[], shape: { bad: number }): Request[] {
  const headers = { 'x-api-key': key };
  const check = (status: number, body: string) => {
    try {
      const parsed = JSON.parse(body) as { data?: unknown; error?: { type?: string; message?: string } };
      const enveloped =
        (status === 200 && parsed.data !== undefined) ||
        (status === 429 &&
          parsed.error?.type === 'rate_limit_error' &&
          /retry in \d+/.test(parsed.error.message ?? ''));
      if (!enveloped) shape.bad += 1;
    } catch {
      shape.bad += 1;
    }
  };
  const paths = [
    ...Array.from({ length: 10 }, (_, page) => `/v1/campaigns?page=${page + 1}&page_size=20&sort=-spend`),
    `/v1/accounts`,
    `/v1/accounts/${accountId}`,
    ...campaignIds.slice(0, 5).map((id) => `/v1/campaigns/${id}?include=insights&insightsDateRange=last_30d`),
    `/v1/insights/summary?account_id=${accountId}`,
    `/v1/insights/summary?account_id=${accountId}&date_start=2026-02-01&date_end=2026-03-01`,
  ];
  return paths.map((path) => ({ method: 'GET', path, headers, onResponse: check }));
}

async function run(url: string, requests: Request[], connections: number, duration: number): Promise<Result> {
  return autocannon({ url, connections, duration, timeout: 10, requests });
}

const suite: BenchSuite = {
  name: 'overload',
  async run(): Promise<BenchFigure[]> {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', new URL('./overload-server.ts', import.meta.url).pathname],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`overload server exited (${code})`)));
    });
    const servers = JSON.parse(line) as Record<'uncached' | 'cached', Served>;
    const uncached = servers.uncached;
    const cached = servers.cached;
    try {
      const u = uncached;
      const c = cached;
      const shapeU = { bad: 0 };
      const shapeC = { bad: 0 };
      await run(uncached.url, mix(u.key, u.accountId, u.campaignIds, { bad: 0 }), 10, 1);
      await run(cached.url, mix(c.key, c.accountId, c.campaignIds, { bad: 0 }), 10, 1);
      const base = await run(cached.url, mix(c.key, c.accountId, c.campaignIds, shapeC), 100, SECONDS);
      const at100 = await run(uncached.url, mix(u.key, u.accountId, u.campaignIds, shapeU), 100, SECONDS);
      const shape200 = { bad: 0 };
      const at200 = await run(uncached.url, mix(u.key, u.accountId, u.campaignIds, shape200), 200, 30);
      const cachedP99 = { name: 'cached path p99, 100 clients', value: base.latency.p99 };
      const cachedRps = { name: 'cached path req/s, 100 clients', value: base.requests.average };
      return [
        figure({
          suite: 'overload',
          name: 'cached reads, 100 clients: req/s',
          value: base.requests.average,
          unit: 'req/s',
        }),
        figure({
          suite: 'overload',
          name: 'cached reads, 100 clients: p99',
          value: base.latency.p99,
          unit: 'ms',
        }),
        figure({
          suite: 'overload',
          name: 'uncached reads, 100 clients: req/s (answered, incl. shed)',
          value: at100.requests.average,
          unit: 'req/s',
          baseline: cachedRps,
        }),
        figure({
          suite: 'overload',
          name: 'uncached reads, 100 clients: p99',
          value: at100.latency.p99,
          unit: 'ms',
          baseline: cachedP99,
          target: { op: '<=', value: 100, of: 'value' },
        }),
        figure({
          suite: 'overload',
          name: 'uncached reads, 100 clients: computed answers (200) per second',
          value: (at100.requests.total - at100.non2xx) / SECONDS,
          unit: 'req/s',
          note: 'autocannon clients retry a refusal at once, ignoring the retry hint',
        }),
        figure({
          suite: 'overload',
          name: 'uncached reads, 100 clients: share shed (429)',
          value: at100.non2xx / Math.max(1, at100.requests.total),
          unit: 'share',
        }),
        figure({
          suite: 'overload',
          name: `uncached reads, 200 clients × 30 s: client time-outs (10 s)`,
          value: at200.timeouts,
          unit: 'time-outs',
          target: { op: '<=', value: 0, of: 'value' },
        }),
        figure({
          suite: 'overload',
          name: '200 clients: responses without the envelope',
          value: shape200.bad + shapeU.bad + at200.errors,
          unit: 'responses',
          target: { op: '<=', value: 0, of: 'value' },
        }),
        figure({
          suite: 'overload',
          name: '200 clients: p99 / share shed',
          value: at200.latency.p99,
          unit: 'ms',
          note: `${((100 * at200.non2xx) / Math.max(1, at200.requests.total)).toFixed(1)}% shed with 429, ${at200.requests.total} answered`,
        }),
      ];
    } finally {
      child.stdin.end();
      await new Promise((resolve) => child.once('exit', resolve));
    }
  },
};

export default suite;
