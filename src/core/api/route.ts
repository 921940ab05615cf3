// The route table is the single description of the /v1 surface: the server dispatches on it and the
// OpenAPI document is generated from it, so the two cannot drift apart.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { ApiErrorType } from '../../shared/errors';
import type { Pagination } from '../../shared/api/common';
import type { RequestContext } from '../identity/access';
import type { App } from '../app';
import type { Counter } from './rate-limit';

export interface RouteContext<Q, B> {
  app: App;
  ctx: RequestContext;
  params: Record<string, string>;
  query: Q;
  body: B;
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  /** Registers cleanup for long-lived responses (the event stream) on server close. */
  onClose(cleanup: () => void): void;
}

export type RouteResult =
  | { kind: 'json'; status: number; data: unknown; pagination?: Pagination }
  | {
      kind: 'file';
      status: number;
      contentType: string;
      fileName: string;
      contentDisposition?: string;
      body: Buffer;
    }
  /** The handler wrote the response itself (a stream). */
  | { kind: 'taken' };

export interface Route<QS extends z.ZodType = z.ZodType, BS extends z.ZodType = z.ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Rate-limit counters the request uses; a POST passes its write counter and its own. */
  counters: readonly Counter[];
  /** Path parameters, validated (bad format → 400) before the handler runs. */
  pathParams?: Record<string, z.ZodType<string>>;
  query?: QS;
  body?: BS;
  response: {
    status: number;
    /** Component name in the OpenAPI document. */
    name?: string;
    schema?: z.ZodType;
    /** Non-JSON responses (file download, event stream). */
    contentTypes?: readonly string[];
  };
  /** The route's own errors; defineRoute adds those every authenticated route can return. */
  errors: readonly ApiErrorType[];
  /**
   * A pure read of the store: its JSON success may be reused while the store is unchanged (see
   * ResponseCache). Never for routes whose answer depends on anything but the store, the key's scope,
   * the URL and the current minute.
   */
  cacheable?: boolean;
  handle(rc: RouteContext<z.output<QS>, z.output<BS>>): RouteResult | Promise<RouteResult>;
}

/** What any authenticated /v1 request can meet: a bad version header, the key checks, limits, a fault. */
export const COMMON_ERRORS: readonly ApiErrorType[] = [
  'invalid_request',
  'authentication_error',
  'key_revoked',
  'plan_insufficient',
  'rate_limit_error',
  'api_error',
];

export function defineRoute<QS extends z.ZodType, BS extends z.ZodType = z.ZodType>(
  route: Route<QS, BS>,
): Route<QS, BS> {
  return { ...route, errors: [...new Set([...route.errors, ...COMMON_ERRORS])] };
}

export const json = (data: unknown, status = 200, pagination?: Pagination): RouteResult =>
  pagination ? { kind: 'json', status, data, pagination } : { kind: 'json', status, data };

interface CompiledRoute {
  route: Route;
  segments: string[];
}

/** Matches a method and path against the table; `{name}` segments capture one path segment. */
export class Router {
  private readonly compiled: CompiledRoute[];

  constructor(routes: readonly Route[]) {
    this.compiled = routes.map((route) => ({ route, segments: route.path.split('/').slice(1) }));
  }

  match(
    method: string,
    pathname: string,
  ): { route: Route; params: Record<string, string> } | { allowed: string[] } | undefined {
    const parts = pathname.split('/').slice(1);
    const allowed: string[] = [];
    for (const { route, segments } of this.compiled) {
      if (segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < segments.length; i++) {
        const segment = segments[i] as string;
        const part = parts[i] as string;
        if (segment.startsWith('{')) {
          if (part === '') {
            ok = false;
            break;
          }
          let decoded: string;
          try {
            decoded = decodeURIComponent(part);
          } catch {
            decoded = part;
          }
          params[segment.slice(1, -1)] = decoded;
        } else if (segment !== part) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      if (route.method === method) return { route, params };
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { allowed } : undefined;
  }
}
