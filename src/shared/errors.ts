// The error vocabulary shared by the /v1 API, IPC and the web bridge: the spec's table plus the
// few types the desktop and CLI need. `type` is stable; `message` is free text.
export const API_ERROR_STATUS = {
  invalid_request: 400,
  invalid_date_range: 400,
  too_many_campaigns: 400,
  authentication_error: 401,
  key_revoked: 401,
  permission_error: 403,
  plan_insufficient: 403,
  white_label_not_available: 403,
  not_found: 404,
  diagnostic_in_progress: 409,
  campaign_not_synced: 422,
  rate_limit_error: 429,
  api_error: 500,
} as const;

export type ApiErrorType = keyof typeof API_ERROR_STATUS;

/** Errors outside the HTTP table, used by the core, CLI and hosts. */
export type CoreErrorType =
  ApiErrorType | 'conflict' | 'token_expired' | 'platform_error' | 'store_error' | 'sync_in_progress';

export interface ErrorValue {
  type: CoreErrorType;
  message: string;
}

/** Results that cross IPC and the web bridge: errors as values, never thrown across the boundary. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorValue };
