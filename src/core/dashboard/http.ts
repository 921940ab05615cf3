// Small HTTP helpers of the dashboard: JSON in and out, cookies, and the security headers every
// dashboard response carries.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { byteLength, endWithChunks, jsonChunks } from '../api/json-text';
import { AppError } from '../errors';

/** The renderer loads only its own files and talks only to its own origin. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

export function securityHeaders(res: ServerResponse): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const chunks = jsonChunks(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': byteLength(chunks),
    'Cache-Control': 'no-store',
    ...headers,
  });
  endWithChunks(res, chunks);
}

export function sendError(res: ServerResponse, status: number, type: string, message: string): void {
  sendJson(res, status, { ok: false, error: { type, message } });
}

const MAX_BODY_BYTES = 1024 * 1024;

/** Reads a JSON body (at most 1 MB); only application/json is accepted, which keeps forms out. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json')
    throw new AppError('invalid_request', 'Send the body as application/json.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new AppError('invalid_request', 'The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError('invalid_request', 'The request body is not valid JSON.');
  }
}

export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) {
      // Any site on 127.0.0.1 can set a cookie here: a malformed one is no session, never an error.
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
