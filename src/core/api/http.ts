// Small HTTP helpers for the /v1 server: JSON and error bodies, body reading, query parsing and the
// mapping from thrown errors to the spec's error table.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { API_ERROR_STATUS, type ApiErrorType } from '../../shared/errors';
import { AppError, isAppError } from '../errors';

export const MAX_BODY_BYTES = 1024 * 1024;

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

export interface ErrorDescription {
  status: number;
  type: ApiErrorType;
  message: string;
}

/** Core error types outside the HTTP table, as the API reports them. */
const CORE_TYPE_TO_API: Record<string, ApiErrorType> = {
  conflict: 'invalid_request',
  token_expired: 'invalid_request',
  sync_in_progress: 'invalid_request',
};

/** Maps anything thrown to the error table; unknown failures become api_error (the caller logs them). */
export function describeError(error: unknown): ErrorDescription | undefined {
  if (!isAppError(error)) return undefined;
  const type = (error.type in API_ERROR_STATUS ? error.type : CORE_TYPE_TO_API[error.type]) as
    ApiErrorType | undefined;
  if (!type || type === 'api_error') return undefined;
  return { status: API_ERROR_STATUS[type], type, message: error.message };
}

export function sendError(
  res: ServerResponse,
  type: ApiErrorType,
  message: string,
  requestId?: string,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const error: { type: ApiErrorType; message: string; requestId?: string } = { type, message };
  if (type === 'api_error' && requestId) error.requestId = requestId;
  sendJson(res, API_ERROR_STATUS[type], { error });
}

/** Reads the whole body up to MAX_BODY_BYTES; a larger body is refused (400) before it is buffered. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      reject(new AppError('invalid_request', `Request body is larger than ${MAX_BODY_BYTES} bytes.`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        failed = true;
        reject(new AppError('invalid_request', `Request body is larger than ${MAX_BODY_BYTES} bytes.`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (error) => {
      if (!failed) reject(error);
    });
  });
}

/** Query parameters as a plain record; a repeated parameter is a malformed request. */
export function parseQuery(search: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (search.length <= 1) return out;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(search);
  } catch {
    throw new AppError('invalid_request', 'The query string is malformed.');
  }
  for (const [name, value] of params) {
    if (Object.prototype.hasOwnProperty.call(out, name)) {
      throw new AppError('invalid_request', `Query parameter "${name}" is given more than once.`);
    }
    out[name] = value;
  }
  return out;
}

/** One readable sentence from a zod error, naming the fields (unknown fields included). */
export function describeZodError(error: z.ZodError, where: 'query' | 'body' | 'path'): string {
  const parts = error.issues.slice(0, 5).map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const noun = where === 'query' ? 'query parameter' : 'field';
      return `unknown ${noun}${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    }
    const path = issue.path.map(String).join('.');
    // zod 4 issues carry no input unless asked, so "missing" is read from the type it received.
    if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) {
      return `"${path}" is required`;
    }
    return path ? `"${path}": ${issue.message}` : issue.message;
  });
  const label =
    where === 'query' ? 'Invalid query' : where === 'body' ? 'Invalid request body' : 'Invalid path';
  return `${label}: ${parts.join('; ')}.`;
}

export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const [type] = header.split(';');
  return type?.trim().toLowerCase() === 'application/json';
}
