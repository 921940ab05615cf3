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
  url: string;
  connections: number;
  duration: number;
  timeout: number;
  requests: Array<{ method: 'GET'; path: string; headers: Record<string, string> }>;
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export async function sequential(url: string, key: string, read: Read, samples: number): Promise<Timing> {
  const times: number[] = [];
  let non200 = 0;
  for (let i = -2; i < samples; i++) {
    const path = read.paths[(i + read.paths.length * 2) % read.paths.length] as string;
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

export async function concurrent(
  url: string,
  key: string,
  read: Read,
  clients: number,
  seconds: number,
): Promise<Timing> {
  const headers = { 'x-api-key': key };
  const result = await autocannon({
    url,
    connections: clients,
    duration: seconds,
    timeout: 60,
    requests: read.paths.map((path) => ({ method: 'GET', path, headers })),
  });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    samples: result.requests.total,
    non200: result.non2xx + result.errors + result.timeouts,
  };
}
