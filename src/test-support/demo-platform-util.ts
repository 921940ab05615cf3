// Helpers for the demo platform's own tests: a tiny Graph client over fetch.

import type { DemoPlatform } from '../core/demo-platform/server';

export interface GraphReply {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

export async function graphGet(
  p: DemoPlatform,
  path: string,
  params: Record<string, string> = {},
  token = 'demo-token',
): Promise<GraphReply> {
  const query = new URLSearchParams(params);
  if (token) query.set('access_token', token);
  const res = await fetch(`${p.url}/${p.apiVersion}${path}?${query.toString()}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

export async function graphUrl(url: string): Promise<GraphReply> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

export async function graphPost(
  p: DemoPlatform,
  path: string,
  body: Record<string, unknown>,
  token = 'demo-token',
): Promise<GraphReply> {
  const res = await fetch(`${p.url}/${p.apiVersion}${path}?access_token=${encodeURIComponent(token)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

export type Row = Record<string, unknown>;

/** Follows `next` to the end and returns every row. */
export async function allPages(
  p: DemoPlatform,
  path: string,
  params: Record<string, string>,
): Promise<Row[]> {
  let reply = await graphGet(p, path, params);
  const rows: Row[] = [];
  for (let guard = 0; guard < 10_000; guard++) {
    if (reply.status !== 200) throw new Error(`HTTP ${reply.status}: ${JSON.stringify(reply.body)}`);
    rows.push(...((reply.body.data as Row[] | undefined) ?? []));
    const next = (reply.body.paging as { next?: string } | undefined)?.next;
    if (!next) return rows;
    reply = await graphUrl(next);
  }
  throw new Error('paging did not end');
}

export function errorOf(reply: GraphReply): {
  code: number;
  error_subcode?: number;
  type: string;
  message: string;
} {
  return (reply.body as { error: { code: number; error_subcode?: number; type: string; message: string } })
    .error;
}
