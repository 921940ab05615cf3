// What every route handler gets, and what it returns.

import type { DemoState } from '../controls';
import type { DeliveryModel } from '../delivery';
import { pageUrl } from '../paging';
import type { World } from '../world/types';

export interface RouteContext {
  world: World;
  model: DeliveryModel;
  state: DemoState;
  /** http://127.0.0.1:PORT */
  baseUrl: string;
  method: string;
  /** The request path as sent (version prefix included), for paging links. */
  path: string;
  /** Query and body parameters together. */
  params: URLSearchParams;
  token: string | undefined;
  /** Set by handlers that touch an ad account, for the usage headers. */
  usage?: { accountId: string; kind: 'management' | 'insights' };
}

export interface RouteResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Builds the absolute URL of another page of this request (access_token always included). */
export function linkFor(
  ctx: RouteContext,
  path = ctx.path,
): (cursor: { after?: string; before?: string }) => string {
  const params = new URLSearchParams(ctx.params);
  if (ctx.token !== undefined) params.set('access_token', ctx.token);
  return (cursor) => pageUrl(ctx.baseUrl, path, params, cursor);
}

export function param(ctx: RouteContext, name: string): string | undefined {
  return ctx.params.get(name) ?? undefined;
}
