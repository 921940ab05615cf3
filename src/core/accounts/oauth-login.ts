// Facebook Login for Business, the desktop way: a one-shot HTTP listener on 127.0.0.1 (random port)
// receives the dialog's redirect, its `state` must be the nonce we sent, the code is exchanged for a
// token at the platform's /oauth/access_token, then for a long-lived one. The host opens `authorizeUrl`
// in the system browser (Electron's shell.openExternal lives in src/main); the core never does.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { AppError } from '../errors';
import { DEFAULT_API_VERSION } from '../platform/graph-client';

export const LOGIN_SCOPES = ['ads_read', 'read_insights', 'business_management'];
const LOGIN_TIMEOUT_MS = 5 * 60_000;

export interface LoopbackLoginOptions {
  /** The agency's own Meta app. */
  appId: string;
  appSecret: string;
  /** Graph API base URL (https://graph.facebook.com, or the demo platform's). */
  graphUrl: string;
  /** Where the login dialog lives (https://www.facebook.com for Meta; the demo platform serves its own). */
  dialogUrl: string;
  apiVersion?: string;
  timeoutMs?: number;
}

export interface LoopbackLogin {
  /** Open this in the system browser. */
  authorizeUrl: string;
  /** The long-lived token (and its expiry, ISO or null = never) once the browser came back. */
  result: Promise<{ token: string; expiresAt: string | null }>;
  /** Gives up (the listener closes, `result` rejects). */
  cancel(): void;
}

const tokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().optional() });

function sameNonce(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function exchange(url: URL): Promise<z.infer<typeof tokenAnswer>> {
  const res = await fetch(url);
  const body: unknown = await res.json().catch(() => null);
  const parsed = tokenAnswer.safeParse(body);
  if (!res.ok || !parsed.success) {
    const message = (body as { error?: { message?: string } } | null)?.error?.message ?? `HTTP ${res.status}`;
    throw new AppError('authentication_error', `The platform refused the login: ${message}`);
  }
  return parsed.data;
}

export async function startLoopbackLogin(opts: LoopbackLoginOptions): Promise<LoopbackLogin> {
  const version = opts.apiVersion ?? DEFAULT_API_VERSION;
  const graph = opts.graphUrl.replace(/\/+$/, '');
  const state = randomBytes(24).toString('base64url');
  let settle!: { resolve: (code: string) => void; reject: (error: Error) => void };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const given = url.searchParams.get('state') ?? '';
    const received = url.searchParams.get('code');
    const ok = sameNonce(given, state) && received !== null;
    res.writeHead(ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      ok
        ? '<p>AdLens is connected. You can close this window.</p>'
        : '<p>This login did not come from AdLens, or was refused. Start again from the app.</p>',
    );
    // A request with another state is someone else's: keep waiting for ours.
    if (!sameNonce(given, state)) return;
    if (received) settle.resolve(received);
    else
      settle.reject(
        new AppError(
          'authentication_error',
          `The login was not approved: ${url.searchParams.get('error_description') ?? url.searchParams.get('error') ?? 'no code'}`,
        ),
      );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  const close = (): void => {
    server.close();
    server.closeAllConnections();
  };
  const timer = setTimeout(
    () => settle.reject(new AppError('invalid_request', 'The login took too long; start again.')),
    opts.timeoutMs ?? LOGIN_TIMEOUT_MS,
  );
  const authorize = new URL(`${opts.dialogUrl.replace(/\/+$/, '')}/${version}/dialog/oauth`);
  authorize.searchParams.set('client_id', opts.appId);
  authorize.searchParams.set('redirect_uri', redirectUri);
  authorize.searchParams.set('state', state);
  authorize.searchParams.set('response_type', 'code');
  authorize.searchParams.set('scope', LOGIN_SCOPES.join(','));

  const result = (async () => {
    try {
      const received = await code;
      const short = new URL(`${graph}/${version}/oauth/access_token`);
      short.searchParams.set('client_id', opts.appId);
      short.searchParams.set('client_secret', opts.appSecret);
      short.searchParams.set('redirect_uri', redirectUri);
      short.searchParams.set('code', received);
      const first = await exchange(short);
      const long = new URL(`${graph}/${version}/oauth/access_token`);
      long.searchParams.set('grant_type', 'fb_exchange_token');
      long.searchParams.set('client_id', opts.appId);
      long.searchParams.set('client_secret', opts.appSecret);
      long.searchParams.set('fb_exchange_token', first.access_token);
      const lasting = await exchange(long);
      return {
        token: lasting.access_token,
        expiresAt: lasting.expires_in ? new Date(Date.now() + lasting.expires_in * 1000).toISOString() : null,
      };
    } finally {
      clearTimeout(timer);
      close();
    }
  })();
  result.catch(() => undefined);
  return {
    authorizeUrl: authorize.toString(),
    result,
    cancel: () => settle.reject(new AppError('invalid_request', 'The login was cancelled.')),
  };
}
