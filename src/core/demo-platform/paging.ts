// Cursor paging as the Graph API does it: `{data, paging:{cursors:{before,after}, previous?, next?}}`,
// opaque base64 cursors, absolute `next`/`previous` URLs that repeat every original parameter.

import { invalidParameter } from './errors';

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 5000;

export interface Paging {
  cursors: { before: string; after: string };
  previous?: string;
  next?: string;
}

export function encodeCursor(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

export function invalidCursor(): ReturnType<typeof invalidParameter> {
  return invalidParameter('Invalid cursor');
}

export function decodeCursor(cursor: string): string {
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  if (!text || encodeCursor(text).replace(/=+$/, '') !== cursor.replace(/=+$/, '')) throw invalidCursor();
  return text;
}

export function parseLimit(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_LIMIT;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw invalidParameter('Param limit must be a positive integer');
  return Math.min(n, MAX_LIMIT);
}

/** The URL of another page: same path and parameters, the cursor swapped. */
export function pageUrl(
  base: string,
  path: string,
  params: URLSearchParams,
  cursor: { after?: string; before?: string },
): string {
  const next = new URLSearchParams(params);
  next.delete('after');
  next.delete('before');
  if (cursor.after !== undefined) next.set('after', cursor.after);
  if (cursor.before !== undefined) next.set('before', cursor.before);
  return `${base}${path}?${next.toString()}`;
}

export interface PageRequest {
  limit: number;
  after?: string;
  before?: string;
}

export interface ListPage<T> {
  data: T[];
  paging?: Paging;
}

/** One page of an in-memory list whose items are identified by a stable key. */
export function pageList<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  req: PageRequest,
  link: (cursor: { after?: string; before?: string }) => string,
): ListPage<T> {
  let start = 0;
  let end: number;
  if (req.after !== undefined) {
    const key = decodeCursor(req.after);
    const i = items.findIndex((item) => keyOf(item) === key);
    start = i < 0 ? items.length : i + 1;
    end = Math.min(items.length, start + req.limit);
  } else if (req.before !== undefined) {
    const key = decodeCursor(req.before);
    const i = items.findIndex((item) => keyOf(item) === key);
    end = i < 0 ? 0 : i;
    start = Math.max(0, end - req.limit);
  } else {
    end = Math.min(items.length, req.limit);
  }
  const data = items.slice(start, end);
  const first = data[0];
  const last = data[data.length - 1];
  if (first === undefined || last === undefined) return { data: [] };
  const before = encodeCursor(keyOf(first));
  const after = encodeCursor(keyOf(last));
  const paging: Paging = { cursors: { before, after } };
  if (start > 0) paging.previous = link({ before });
  if (end < items.length) paging.next = link({ after });
  return { data, paging };
}
