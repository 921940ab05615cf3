import { z } from 'zod';

/**
 * What the connector makes of a Graph API failure. The kind decides what the caller does:
 * retry (transient), wait (throttled), ask for less (reduce_data), or stop (the rest).
 */
export type GraphErrorKind =
  | 'token_expired'
  | 'permission'
  | 'not_found'
  | 'throttled'
  | 'transient'
  | 'reduce_data'
  | 'invalid_request'
  | 'unknown';

export class GraphError extends Error {
  constructor(
    readonly kind: GraphErrorKind,
    message: string,
    readonly info: {
      httpStatus?: number;
      code?: number;
      subcode?: number;
      fbtraceId?: string;
      /** For throttling: how long the platform says to wait, in milliseconds. */
      retryAfterMs?: number;
    } = {},
  ) {
    super(message);
    this.name = 'GraphError';
  }
}

export const graphErrorEnvelope = z.object({
  error: z.object({
    message: z.string().default(''),
    type: z.string().optional(),
    code: z.coerce.number().optional(),
    error_subcode: z.coerce.number().optional(),
    is_transient: z.boolean().optional(),
    fbtrace_id: z.string().optional(),
  }),
});

// Marketing API throttling (research §5.2): app, user, ad-account and business-use-case limits.
const THROTTLE_CODES = new Set([4, 17, 32, 341, 613, 80000, 80001, 80002, 80003, 80004, 80005, 80006, 80008]);
// Sync insight requests that are too big (research §3.4).
const REDUCE_DATA_SUBCODES = new Set([1487534, 1504018, 1504038]);

/** Maps an HTTP status and a (possibly absent) error envelope to a GraphError. */
export function classifyGraphError(httpStatus: number, body: unknown, retryAfterMs?: number): GraphError {
  const parsed = graphErrorEnvelope.safeParse(body);
  if (!parsed.success) {
    const kind: GraphErrorKind =
      httpStatus >= 500 || httpStatus === 429 ? 'transient' : httpStatus === 404 ? 'not_found' : 'unknown';
    return new GraphError(kind, `Graph API answered HTTP ${httpStatus} without an error body`, {
      httpStatus,
    });
  }
  const { message, code, error_subcode: subcode, is_transient, fbtrace_id } = parsed.data.error;
  const info = {
    httpStatus,
    ...(code === undefined ? {} : { code }),
    ...(subcode === undefined ? {} : { subcode }),
    ...(fbtrace_id === undefined ? {} : { fbtraceId: fbtrace_id }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
  const text = `Graph API error${code === undefined ? '' : ` ${code}${subcode ? `/${subcode}` : ''}`}: ${message}`;
  return new GraphError(kindOf(httpStatus, code, subcode, message, is_transient), text, info);
}

function kindOf(
  httpStatus: number,
  code: number | undefined,
  subcode: number | undefined,
  message: string,
  isTransient: boolean | undefined,
): GraphErrorKind {
  if (code === 190 || code === 102) return 'token_expired';
  if (code !== undefined && THROTTLE_CODES.has(code)) return 'throttled';
  if (/reduce the amount of data/i.test(message)) return 'reduce_data';
  if (subcode !== undefined && REDUCE_DATA_SUBCODES.has(subcode)) return 'reduce_data';
  if (code === 10 || (code !== undefined && code >= 200 && code <= 299)) return 'permission';
  if (code === 803 || (code === 100 && (subcode === 33 || /does not exist|unknown path/i.test(message)))) {
    return 'not_found';
  }
  if (code === 1 || code === 2 || isTransient === true || httpStatus >= 500) return 'transient';
  if (httpStatus === 404) return 'not_found';
  if (code === 100) return 'invalid_request';
  return 'unknown';
}

/**
 * Reads the usage headers (research §5.3): the highest utilisation percentage seen and the longest
 * `estimated_time_to_regain_access` (minutes in the header, milliseconds here).
 */
export function readUsage(headers: Headers): {
  maxPercent: number;
  regainAccessMs: number;
  accessTier?: string;
} {
  let maxPercent = 0;
  let regainAccessMs = 0;
  let accessTier: string | undefined;
  const consider = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return;
    for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
      if (key === 'ads_api_access_tier' && typeof raw === 'string') accessTier = raw;
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : NaN;
      if (Array.isArray(raw)) raw.forEach(consider);
      else if (raw !== null && typeof raw === 'object') consider(raw);
      else if (!Number.isFinite(n)) continue;
      else if (key === 'estimated_time_to_regain_access')
        regainAccessMs = Math.max(regainAccessMs, n * 60_000);
      else if (
        ['call_count', 'total_cputime', 'total_time', 'acc_id_util_pct', 'app_id_util_pct'].includes(key)
      ) {
        maxPercent = Math.max(maxPercent, n);
      }
    }
  };
  for (const name of [
    'x-business-use-case-usage',
    'x-ad-account-usage',
    'x-app-usage',
    'x-fb-ads-insights-throttle',
  ]) {
    const text = headers.get(name);
    if (!text) continue;
    try {
      consider(JSON.parse(text));
    } catch {
      // A malformed usage header is the platform's problem, not a reason to fail the sync.
    }
  }
  return { maxPercent, regainAccessMs, ...(accessTier ? { accessTier } : {}) };
}
