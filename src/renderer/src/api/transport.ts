// Picks the transport at runtime: the desktop preload's named functions (IPC) when present, else the
// web bridge over HTTP with the session cookie and the CSRF token. Both return Result values.
import type { Result } from '../../../shared/errors';
import type {
  BridgeEvent,
  DesktopBridge,
  HandlerInput,
  HandlerName,
  HandlerResult,
} from '../../../shared/ipc';

declare global {
  interface Window {
    adlens?: DesktopBridge;
  }
}

export const isDesktop = (): boolean => typeof window !== 'undefined' && window.adlens !== undefined;

let csrfToken: string | null = null;
let onSignedOut: (() => void) | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export function whenSignedOut(listener: () => void): void {
  onSignedOut = listener;
}

/** A thrown form of an error value, for react-query (which expects rejections). */
export class CallError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export async function postJson<T>(path: string, body: unknown): Promise<Result<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', ...(csrfToken ? { 'x-csrf-token': csrfToken } : {}) },
      body: JSON.stringify(body ?? {}),
    });
  } catch {
    return { ok: false, error: { type: 'api_error', message: 'The AdLens server cannot be reached.' } };
  }
  if (response.status === 204) return { ok: true, value: undefined as T };
  const parsed = (await response.json().catch(() => null)) as Result<T> | null;
  if (response.status === 401 && path.startsWith('/bridge/')) onSignedOut?.();
  return (
    parsed ?? { ok: false, error: { type: 'api_error', message: `Unexpected answer (${response.status}).` } }
  );
}

export function call<K extends HandlerName>(
  name: K,
  args: HandlerInput<K>,
): Promise<Result<HandlerResult<K>>> {
  const desktop = window.adlens;
  if (desktop) return desktop.handlers[name](args);
  return postJson<HandlerResult<K>>(`/bridge/${name}`, args);
}

/** Calls and unwraps: resolves the value or rejects with a CallError (for queries and mutations). */
export async function request<K extends HandlerName>(
  name: K,
  args: HandlerInput<K>,
): Promise<HandlerResult<K>> {
  const result = await call(name, args);
  if (!result.ok) throw new CallError(result.error.type, result.error.message);
  return result.value;
}

const EVENT_NAMES: BridgeEvent['name'][] = [
  'sync.progress',
  'sync.completed',
  'sync.failed',
  'connection.changed',
  'diagnostic.changed',
  'report.changed',
  'issue.changed',
  'alert.raised',
];

/** Core events pushed by the host: IPC on the desktop, Server-Sent Events in the browser. */
export function subscribeEvents(listener: (event: BridgeEvent) => void): () => void {
  const desktop = window.adlens;
  if (desktop) return desktop.onEvent(listener);
  const source = new EventSource('/bridge/events');
  for (const name of EVENT_NAMES) {
    source.addEventListener(name, (message) => {
      listener({
        name,
        payload: JSON.parse((message as MessageEvent<string>).data) as Record<string, unknown>,
      });
    });
  }
  return () => source.close();
}
