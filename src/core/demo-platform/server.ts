// The demo platform's HTTP server (node:http on 127.0.0.1): version prefix handling, token checks,
// injected failures, usage headers, batch requests, and dispatch to the route handlers.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { controlsFor, DemoState } from './controls';
import { worldControlsFor } from './world-controls';
import { DeliveryModel } from './delivery';
import {
  expiredToken,
  GraphError,
  invalidParameter,
  invalidToken,
  missingToken,
  serverError,
  throttled,
  unknownPath,
} from './errors';
import type { RouteContext, RouteResult } from './routes/context';
import { isJob, jobInsights, jobStatus, startAsyncInsights, syncInsights } from './routes/insights';
import { accessToken, debugToken, dialog } from './routes/oauth';
import {
  adAccounts,
  businessAccounts,
  businesses,
  edge,
  me,
  node,
  permissions,
  resolveNode,
} from './routes/objects';
import type { DemoControls } from './types';
import { generateWorld } from './world/generate';
import type { GenerateWorldOptions, World } from './world/types';

export const API_VERSION = 'v25.0';
const MAX_BODY_BYTES = 1_000_000;
const OPEN_ROUTES = new Set(['oauth/access_token', 'dialog/oauth', 'debug_token']);

export interface DemoPlatform {
  url: string;
  apiVersion: string;
  controls: DemoControls;
  close(): Promise<void>;
}

export interface StartDemoPlatformOptions extends GenerateWorldOptions {
  port?: number;
  /** Synchronous insight reads of more rows (entities × days) get 100/1487534; default 100,000. */
  syncInsightsRowLimit?: number;
}

interface Dispatch {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

const batchSchema = z
  .array(
    z.object({ method: z.string().default('GET'), relative_url: z.string(), body: z.string().optional() }),
  )
  .max(50, 'batch requests are limited to 50');

export class GraphServer {
  readonly model: DeliveryModel;
  readonly state: DemoState;
  baseUrl = '';

  constructor(readonly world: World) {
    this.model = new DeliveryModel(world);
    this.state = new DemoState(world.seed);
  }

  /** Handles one Graph request (also used for each entry of a batch). */
  dispatch(method: string, rawPath: string, params: URLSearchParams, token: string | undefined): Dispatch {
    const segments = rawPath.split('/').filter(Boolean);
    if (segments[0] && /^v\d+\.\d+$/.test(segments[0])) segments.shift();
    const route = segments.join('/');
    const ctx: RouteContext = {
      world: this.world,
      model: this.model,
      state: this.state,
      baseUrl: this.baseUrl,
      method,
      path: rawPath,
      params,
      token,
    };
    const headers: Record<string, string> = { 'facebook-api-version': API_VERSION };
    this.state.record(`${method} ${rawPath}${params.size > 0 ? `?${redact(params)}` : ''}`);
    this.state.appCalls++;
    try {
      if (!OPEN_ROUTES.has(route)) {
        this.authenticate(token);
        this.inject();
      }
      const result = this.route(ctx, method, segments, route);
      Object.assign(headers, this.usageHeaders(ctx, false), result.headers ?? {});
      return { status: result.status ?? 200, body: result.body, headers };
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      const throttledNow = err.transient === true && err.status === 400;
      Object.assign(headers, this.usageHeaders(ctx, throttledNow), {
        'www-authenticate': err.code === 190 ? 'OAuth "Facebook Platform" "invalid_token"' : '',
      });
      if (!headers['www-authenticate']) delete headers['www-authenticate'];
      return { status: err.status, body: err.body(this.state.traceId()), headers };
    }
  }

  private authenticate(token: string | undefined): void {
    if (!token) throw missingToken();
    const check = this.state.checkToken(token);
    if (check.state === 'invalid') throw invalidToken();
    if (check.state === 'expired') throw expiredToken(new Date(check.at * 1000), new Date());
  }

  private inject(): void {
    if (this.state.throttle.n > 0) {
      this.state.throttle.n--;
      throw throttled(this.state.throttle.code);
    }
    if (this.state.fail.n > 0) {
      this.state.fail.n--;
      throw serverError(this.state.fail.code);
    }
  }

  private route(ctx: RouteContext, method: string, segments: string[], route: string): RouteResult {
    if (route === 'oauth/access_token') return accessToken(ctx);
    if (route === 'dialog/oauth') return dialog(ctx);
    if (route === 'debug_token') return debugToken(ctx);
    const [first, second, ...rest] = segments;
    if (first === undefined) {
      if (method === 'POST' && ctx.params.has('batch')) return this.batch(ctx);
      throw unknownPath('/');
    }
    if (rest.length > 0) throw unknownPath(`/${segments.join('/')}`);
    if (first === 'me') {
      if (second === undefined) return me(ctx);
      if (second === 'adaccounts') return adAccounts(ctx);
      if (second === 'permissions') return permissions();
      if (second === 'businesses') return businesses(ctx);
      throw unknownPath(second);
    }
    if (second !== undefined && this.world.businesses.some((b) => b.id === first))
      return businessAccounts(ctx, first, second);
    if (isJob(ctx, first)) {
      if (second === undefined) return jobStatus(ctx, first);
      if (second === 'insights') return jobInsights(ctx, first);
      throw unknownPath(second);
    }
    const n = resolveNode(ctx, first);
    if (second === undefined) return node(ctx, n);
    if (second === 'insights') return method === 'POST' ? startAsyncInsights(ctx, n) : syncInsights(ctx, n);
    return edge(ctx, n, second);
  }

  private batch(ctx: RouteContext): RouteResult {
    let raw: unknown;
    try {
      raw = JSON.parse(ctx.params.get('batch') ?? '');
    } catch {
      throw invalidParameter('batch must be a JSON array');
    }
    const parsed = batchSchema.safeParse(raw);
    if (!parsed.success) throw invalidParameter(parsed.error.issues[0]?.message ?? 'invalid batch');
    const results = parsed.data.map((entry) => {
      const url = new URL(entry.relative_url.replace(/^\/?/, '/'), 'http://batch.local');
      const params = new URLSearchParams(url.searchParams);
      if (entry.body) for (const [k, v] of new URLSearchParams(entry.body)) params.set(k, v);
      const token = params.get('access_token') ?? ctx.token;
      params.delete('access_token');
      const res = this.dispatch(entry.method.toUpperCase(), url.pathname, params, token);
      return {
        code: res.status,
        headers: Object.entries(res.headers).map(([name, value]) => ({ name, value })),
        body: JSON.stringify(res.body),
      };
    });
    return { body: results };
  }

  private usageHeaders(ctx: RouteContext, throttledNow: boolean): Record<string, string> {
    const regain = throttledNow ? this.state.throttle.regainMinutes : 0;
    const appPct = throttledNow ? 100 : usagePct(this.state.appCalls);
    const headers: Record<string, string> = {
      'x-app-usage': JSON.stringify({
        call_count: appPct,
        total_cputime: Math.floor(appPct / 2),
        total_time: Math.floor(appPct / 2),
      }),
    };
    const accountId = ctx.usage?.accountId ?? accountIdInPath(ctx.path);
    if (!accountId) return headers;
    const usage = this.state.countUsage(accountId, ctx.usage?.kind ?? 'management');
    const entry = (type: string, calls: number): Record<string, unknown> => {
      const pct = throttledNow ? 100 : usagePct(calls);
      return {
        type,
        call_count: pct,
        total_cputime: Math.floor(pct / 3),
        total_time: Math.floor(pct / 3),
        estimated_time_to_regain_access: regain,
        ads_api_access_tier: 'development_access',
      };
    };
    headers['x-business-use-case-usage'] = JSON.stringify({
      [accountId]: [entry('ads_insights', usage.insights), entry('ads_management', usage.management)],
    });
    headers['x-ad-account-usage'] = JSON.stringify({
      acc_id_util_pct: throttledNow ? 100 : usagePct(usage.insights + usage.management),
      reset_time_duration: regain * 60,
      ads_api_access_tier: 'development_access',
    });
    return headers;
  }
}

/**
 * Usage grows with calls (1 point per 20 calls) but stops at 90, so clients that back off above
 * 95% (as Airbyte does) only ever do so when a throttle is injected.
 */
function usagePct(calls: number): number {
  return Math.min(90, Math.floor(calls / 20));
}

function accountIdInPath(path: string): string | undefined {
  return /\/act_(\d+)/.exec(path)?.[1];
}

function redact(params: URLSearchParams): string {
  const copy = new URLSearchParams(params);
  if (copy.has('access_token')) copy.set('access_token', '…');
  if (copy.has('client_secret')) copy.set('client_secret', '…');
  return copy.toString();
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw invalidParameter('Request body too large');
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Query and body parameters as strings (JSON bodies: objects are re-encoded as JSON text). */
function mergeBody(params: URLSearchParams, body: string, contentType: string): void {
  if (!body) return;
  if (contentType.includes('application/json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw invalidParameter('Request body is not valid JSON');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw invalidParameter('Request body must be a JSON object');
    for (const [k, v] of Object.entries(parsed)) params.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    return;
  }
  for (const [k, v] of new URLSearchParams(body)) params.set(k, v);
}

function bearer(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  const match = header ? /^(?:Bearer|OAuth)\s+(.+)$/i.exec(header) : null;
  return match?.[1]?.trim();
}

async function handle(server: GraphServer, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const params = new URLSearchParams(url.searchParams);
  let result: Dispatch;
  try {
    if (req.method === 'POST' || req.method === 'PUT')
      mergeBody(params, await readBody(req), req.headers['content-type'] ?? '');
    const token = params.get('access_token') ?? bearer(req);
    params.delete('access_token');
    result = server.dispatch((req.method ?? 'GET').toUpperCase(), url.pathname, params, token);
  } catch (err) {
    const graph =
      err instanceof GraphError
        ? err
        : new GraphError(500, 1, 'An unknown error occurred', 99, 'OAuthException', true);
    if (!(err instanceof GraphError)) console.error('demo platform: internal error', err);
    result = { status: graph.status, body: graph.body(server.state.traceId()), headers: {} };
  }
  const latency = server.state.latencyMs;
  if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
  const text = typeof result.body === 'string' ? result.body : JSON.stringify(result.body);
  res.writeHead(result.status, {
    'content-type': 'application/json; charset=UTF-8',
    'x-fb-trace-id': server.state.traceId(),
    'x-fb-rev': '1012345678',
    ...result.headers,
  });
  res.end(text);
}

export async function startServer(opts: StartDemoPlatformOptions = {}): Promise<DemoPlatform> {
  const graph = new GraphServer(generateWorld(opts));
  if (opts.syncInsightsRowLimit !== undefined) graph.state.syncInsightsRowLimit = opts.syncInsightsRowLimit;
  const server = createServer((req, res) => {
    handle(graph, req, res).catch((err: unknown) => {
      console.error('demo platform: failed to answer', err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  graph.baseUrl = `http://127.0.0.1:${port}`;
  return {
    url: graph.baseUrl,
    apiVersion: API_VERSION,
    controls: { ...controlsFor(graph.state), ...worldControlsFor(graph.world, graph.model) },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
