// The reads of the scale bench, timed over real HTTP against the server process: one at a time
// (each request waits for the last) and with 8 concurrent clients (autocannon, keep-alive), each
// read cycling through several accounts so no single account's pages stay hot.
import { createRequire } from 'node:module';
import { percentile } from '../harness';

export interface Read {
  name: string;
  paths: string[];
}

export interface Timing {
  p50: number;
  p99: number;
  samples: number;
  /** Answers other than 200 (a refused read shows here, not as a fast figure). */
  non200: number;
}

interface AutocannonResult {
  latency: { p50: number; p99: number };
  requests: { total: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (opts: {
  /** Several: the connections take them in turn. */
  url: string | string[];
  connections: number;
  amount: number;
  timeout: number;
  requests: Array<{ method: 'GET'; path: string; headers: Record<string, string> }>;
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** One request at a time, to each server process in turn. */
export async function sequential(urls: string[], key: string, read: Read, samples: number): Promise<Timing> {
  const times: number[] = [];
  let non200 = 0;
  for (let i = -2; i < samples; i++) {
    const path = read.paths[(i + read.paths.length * 2) % read.paths.length] as string;
    const url = urls[(i + urls.length * 2) % urls.length] as string;
    const started = performance.now();
    const res = await fetch(`${url}${path}`, { headers: { 'x-api-key': key } });
    await res.arrayBuffer();
    const ms = performance.now() - started;
    if (i < 0) continue; // warm-up: JIT and statement caches
    if (res.status !== 200) non200 += 1;
    times.push(ms);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), samples: times.length, non200 };
}

/**
 * `clients` connections, each sending its next request when its last is answered, for about
 * `seconds` judged from the one-at-a-time median (at least two requests per client, so a read of
 * several seconds still gives figures; at most 400 requests), after two untimed requests per client.
 * With several server processes the connections are shared out among them in turn, by one load
 * generator: its percentiles are those of all the requests together (two generators would each give a
 * p99 of half the requests, and the worst of those is nearer the maximum than the p99).
 */
export async function concurrent(
  urls: string[],
  key: string,
  read: Read,
  clients: number,
  seconds: number,
  medianMs: number,
): Promise<Timing> {
  const headers = { 'x-api-key': key };
  const amount = Math.min(
    400,
    Math.max(clients * 2, Math.round((seconds * 1000 * clients) / Math.max(1, medianMs))),
  );
  const run = (requests: number) =>
    autocannon({
      url: urls,
      connections: clients,
      amount: requests,
      timeout: 120,
      requests: read.paths.map((path) => ({ method: 'GET', path, headers })),
    });
  // Warm-up, not timed: the one-at-a-time requests ran on one of a process's pooled database
  // connections, and each other connection prepares its statements on its first use.
  await run(clients * 2);
  const result = await run(amount);
  const answered = result.requests.total > 0;
  return {
    p50: answered ? result.latency.p50 : NaN,
    p99: answered ? result.latency.p99 : NaN,
    samples: result.requests.total,
    non200: result.non2xx + result.errors + result.timeouts,
  };
}
