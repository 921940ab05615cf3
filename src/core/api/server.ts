// The /v1 HTTP server: plain node:http on 127.0.0.1 and a route table. Per request, in order: request
// ID, version header, route, key, rate limit, query, path IDs, body, handler, envelope (a JSON read's
// query, IDs and handler run while its rate limit is decided, and wait for it before they are written).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { API_VERSIONS, CURRENT_API_VERSION } from '../../shared/api/common';
import { LONE_SURROGATE_MESSAGE, loneSurrogatePath } from '../../shared/text';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import type { RequestContext } from '../identity/access';
import { recordServerUrl } from '../identity/invitations';
import type { App } from '../app';
import { Admission, type AdmissionOptions } from './admission';
import { Authenticator } from './auth';
import { describeError, describeZodError, isJsonContentType, parseQuery, readBody, sendError } from './http';
import { byteLength, endWithChunks, jsonChunks } from './json-text';
import { RateLimiter, type RateLimitCounters } from './rate-limit';
import { ResponseCache } from './response-cache';
import { Router, type Route, type RouteResult } from './route';
import { apiRoutes } from './routes';
import { buildOpenApiDocument } from './openapi';

/** `{"data":…,"pagination":…` without its closing brace, so meta can be appended per request. */
function jsonFragment(result: Extract<RouteResult, { kind: 'json' }>): Buffer[] {
  const chunks = jsonChunks(
    result.pagination ? { data: result.data, pagination: result.pagination } : { data: result.data },
  );
  const last = chunks.length - 1;
  chunks[last] = (chunks[last] as Buffer).subarray(0, -1);
  return chunks;
}

function writeFragment(
  res: ServerResponse,
  status: number,
  fragment: readonly Buffer[],
  remaining: number,
): void {
  const chunks = [...fragment, Buffer.from(`,"meta":{"remaining_requests":${remaining}}}`)];
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': byteLength(chunks),
    'cache-control': 'no-store',
  });
  endWithChunks(res, chunks);
}

/** A request's answer, to write once its rate-limit decision is known. */
type Answer =
  { kind: 'json'; status: number; fragment: readonly Buffer[] } | { kind: 'other'; result: RouteResult };

/** A promise that never rejects: its value or its error, to look at later (never unhandled). */
function settled<T>(promise: Promise<T>): Promise<{ value: T } | { error: unknown }> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

export interface ApiServerOptions {
  host?: '127.0.0.1';
  port: number;
  /** Gets every request outside /v1 (the dashboard); 404 not_found when it returns false. */
  fallback?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
  /** The rate limiter's time source (tests move it to see windows reset); default the core clock. */
  rateLimitClock?: Clock;
  /**
   * Where rate-limit windows are counted: this process's memory by default; a team server passes
   * counters shared by all its processes (`PgRateLimiter`), so a key's limit holds in total.
   */
  rateLimits?: RateLimitCounters;
  /** Reuse JSON answers while the store is unchanged (default); off to measure the computation. */
  cacheResponses?: boolean;
  /** Overload protection (bounded in-flight requests, a short queue, shedding on event-loop lag). */
  admission?: AdmissionOptions;
  /**
   * The origin clients reach this server by, when that is not its own loopback address (a team
   * server behind a reverse proxy: https://adlens.agency.example): the base of the links it hands out
   * (report downloads, invitations, alert links).
   */
  publicUrl?: string;
}

export interface ApiServer {
  url: string;
  /** The base of the links this server hands out: `publicUrl` when given, else `url`. */
  linkBase: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

const VERSION_HEADER = 'service-version';
/** The request line and headers together (a URL with a few hundred IDs fits; more is refused). */
export const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Requests Node's parser refuses (an oversized URL or headers, a malformed request line) get the
 * spec's error envelope instead of a bare status or a reset: the rest of what the client sends is
 * read and dropped so it can read the answer before the connection closes.
 */
function answerMalformedRequest(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || (error.code === 'ECONNRESET' && socket.destroyed)) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const body = JSON.stringify({
    error: {
      type: 'invalid_request',
      message: tooLarge
        ? `The request URL and headers exceed ${MAX_HEADER_BYTES / 1024} KB; send fewer IDs per request.`
        : 'The request is not valid HTTP.',
    },
  });
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `request-id: req_${randomUUID().replaceAll('-', '')}\r\nconnection: close\r\n\r\n${body}`,
  );
  socket.on('error', () => {});
  socket.resume();
  setTimeout(() => socket.destroy(), 2_000).unref();
}

export async function createApiServer(app: App, opts: ApiServerOptions): Promise<ApiServer> {
  const host = opts.host ?? '127.0.0.1';
  const routes = apiRoutes();
  const router = new Router(routes);
  const version = app.core.storeVersion;
  const auth = new Authenticator(app.core.sql, app.core.clock, version);
  const limiter = opts.rateLimits ?? new RateLimiter(opts.rateLimitClock ?? app.core.clock);
  // No store version (a team server), or caching turned off: no answer is reused, and none is kept.
  const responses =
    version && opts.cacheResponses !== false ? new ResponseCache(version, app.core.clock) : null;
  const closers = new Set<() => void>();
  let openApiText: string | undefined;

  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    void handle(req, res);
  });
  server.on('clientError', answerMalformedRequest);
  const admission = new Admission(opts.admission);
  // Keep-alive connections must not keep a closing server open, nor idle sockets forever.
  server.keepAliveTimeout = 5_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = `req_${randomUUID().replaceAll('-', '')}`;
    res.setHeader('request-id', requestId);
    const admitted = await admission.admit();
    if (!admitted.ok) {
      const s = admitted.retryAfterSeconds;
      sendError(res, 'rate_limit_error', `The server is busy: retry in ${s} second${s === 1 ? '' : 's'}.`);
      return;
    }
    try {
      await serve(req, res, requestId);
    } finally {
      admitted.release();
    }
  }

  async function serve(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    try {
      const rawUrl = req.url ?? '/';
      const queryStart = rawUrl.indexOf('?');
      const pathname = queryStart === -1 ? rawUrl : rawUrl.slice(0, queryStart);
      const search = queryStart === -1 ? '' : rawUrl.slice(queryStart);
      if (pathname !== '/v1' && !pathname.startsWith('/v1/')) {
        if (opts.fallback && (await opts.fallback(req, res))) return;
        sendError(res, 'not_found', `No route ${req.method ?? 'GET'} ${pathname}.`);
        return;
      }
      const versionHeader = req.headers[VERSION_HEADER];
      const version = Array.isArray(versionHeader) ? versionHeader.join(',') : versionHeader;
      res.setHeader(VERSION_HEADER, CURRENT_API_VERSION);
      if (version !== undefined && !(API_VERSIONS as readonly string[]).includes(version)) {
        throw new AppError(
          'invalid_request',
          `Unsupported ${VERSION_HEADER} "${version}"; supported versions: ${API_VERSIONS.join(', ')}.`,
        );
      }
      if (req.method === 'GET' && pathname === '/v1/openapi.json') {
        openApiText ??= JSON.stringify(buildOpenApiDocument(routes));
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(openApiText);
        return;
      }
      const match = router.match(req.method ?? 'GET', pathname);
      if (!match) throw new AppError('not_found', `No route ${req.method ?? 'GET'} ${pathname}.`);
      if (!('route' in match)) {
        throw new AppError(
          'not_found',
          `No route ${req.method ?? 'GET'} ${pathname} (it takes ${match.allowed.join(', ')}).`,
        );
      }
      await dispatch(match.route, match.params, search, req, res, requestId);
    } catch (error) {
      const described = describeError(error);
      if (described) {
        sendError(res, described.type, described.message);
      } else {
        app.core.logger.error('api: unexpected failure', {
          requestId,
          method: req.method,
          url: req.url,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
        sendError(res, 'api_error', `An unexpected error occurred (request ${requestId}).`, requestId);
      }
    }
  }

  async function dispatch(
    route: Route,
    rawParams: Record<string, string>,
    search: string,
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
  ): Promise<void> {
    const { ctx, key, limits } = await auth.authenticate(req.headers['x-api-key']);
    const taking = limiter.take(key.id, route.counters, limits);
    const answering = () => settled(answer(route, rawParams, search, req, res, requestId, ctx));
    // A JSON read changes nothing, so it runs while a decision still to come is made: on a team server
    // that is a round trip to the database where one key's requests take turns, and the read's own
    // statements need not wait for it. A refused read's answer is dropped unseen (and the counters
    // remember a full window, so a client past its limit does not make every refusal a read).
    const reading =
      taking instanceof Promise && req.method === 'GET' && !route.response.contentTypes ? answering() : null;
    const decision = await taking;
    if (!decision.ok) {
      const s = decision.retryAfterSeconds;
      throw new AppError(
        'rate_limit_error',
        `Rate limit exceeded (${decision.counter}): retry in ${s} second${s === 1 ? '' : 's'}.`,
      );
    }
    const outcome = await (reading ?? answering());
    if ('error' in outcome) throw outcome.error;
    const answered = outcome.value;
    if (answered.kind === 'json') writeFragment(res, answered.status, answered.fragment, decision.remaining);
    else writeResult(res, answered.result);
  }

  /** What a request answers once admitted: its JSON (from the cache, or the handler's) or another result. */
  async function answer(
    route: Route,
    rawParams: Record<string, string>,
    search: string,
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    ctx: RequestContext,
  ): Promise<Answer> {
    const cacheKey =
      responses && route.cacheable && req.method === 'GET'
        ? responses.key(`${ctx.workspaceId}|${ctx.mode}`, `${route.operationId}${req.url ?? ''}`)
        : undefined;
    const cached = cacheKey ? responses?.get(cacheKey) : undefined;
    if (cached) return { kind: 'json', status: 200, fragment: [cached] };
    const rawQuery = parseQuery(search);
    const query = route.query ? route.query.safeParse(rawQuery) : undefined;
    if (query && !query.success)
      throw new AppError('invalid_request', describeZodError(query.error, 'query'));
    if (!route.query && Object.keys(rawQuery).length > 0) {
      throw new AppError('invalid_request', `This endpoint takes no query parameters.`);
    }
    const params: Record<string, string> = {};
    for (const [name, schema] of Object.entries(route.pathParams ?? {})) {
      const parsed = schema.safeParse(rawParams[name]);
      if (!parsed.success) {
        throw new AppError(
          'invalid_request',
          `Invalid ${name} "${rawParams[name] ?? ''}": ${parsed.error.issues[0]?.message ?? 'malformed'}.`,
        );
      }
      params[name] = parsed.data;
    }
    let body: unknown = undefined;
    if (req.method !== 'GET') body = await parseBody(route, req);
    const result = await route.handle({
      app,
      ctx,
      params,
      query: query?.data,
      body,
      req,
      res,
      requestId,
      onClose: (cleanup) => {
        closers.add(cleanup);
        res.on('close', () => closers.delete(cleanup));
      },
    });
    if (result.kind !== 'json') return { kind: 'other', result };
    // Written as bytes: a socket given a long string measures its UTF-8 length and encodes it again.
    const fragment = jsonFragment(result);
    if (cacheKey && result.status === 200) responses?.set(cacheKey, Buffer.concat(fragment));
    return { kind: 'json', status: result.status, fragment };
  }

  async function parseBody(route: Route, req: IncomingMessage): Promise<unknown> {
    const raw = await readBody(req);
    const text = raw.toString('utf8');
    if (text.trim() === '') {
      if (!route.body || route.body.safeParse(undefined).success) return undefined;
      throw new AppError('invalid_request', 'A JSON request body is required.');
    }
    if (!isJsonContentType(req.headers['content-type'])) {
      throw new AppError(
        'invalid_request',
        'Send the request body as JSON with Content-Type: application/json.',
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new AppError('invalid_request', 'The request body is not valid JSON.');
    }
    const invalidText = loneSurrogatePath(parsed);
    if (invalidText) throw new AppError('invalid_request', `body.${invalidText} ${LONE_SURROGATE_MESSAGE}.`);
    if (!route.body) {
      if (
        parsed !== null &&
        typeof parsed === 'object' &&
        !Array.isArray(parsed) &&
        Object.keys(parsed).length === 0
      ) {
        return undefined;
      }
      throw new AppError('invalid_request', 'This endpoint takes no request body fields.');
    }
    const result = route.body.safeParse(parsed);
    if (!result.success) throw new AppError('invalid_request', describeZodError(result.error, 'body'));
    return result.data;
  }

  function writeResult(res: ServerResponse, result: RouteResult): void {
    if (result.kind === 'file') {
      res.writeHead(result.status, {
        'content-type': result.contentType,
        'content-length': result.body.length,
        'content-disposition':
          result.contentDisposition ??
          `attachment; filename="${result.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"`,
        'cache-control': 'no-store',
      });
      res.end(result.body);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host}:${port}`;
  const linkBase = (opts.publicUrl ?? url).replace(/\/+$/, '');
  await recordServerUrl(app.core.sql, linkBase);
  app.reports.setBaseUrl(linkBase);

  return {
    url,
    linkBase,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        for (const close of [...closers]) close();
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
