// OAuth endpoints: the login dialog (redirects at once), code and long-lived token exchange,
// and debug_token. Issued tokens live in memory for the life of the server.

import { GraphError, invalidParameter } from '../errors';
import type { IssuedToken } from '../controls';
import { param, type RouteContext, type RouteResult } from './context';

const LONG_LIVED_SECONDS = 5_183_944;
const CODE_TOKEN_SECONDS = 5_183_976;
const SCOPES = ['ads_read', 'read_insights'];

function requireApp(ctx: RouteContext): void {
  if (!param(ctx, 'client_id'))
    throw new GraphError(400, 101, 'Error validating application. Invalid application ID.');
  if (!param(ctx, 'client_secret')) throw invalidParameter('Missing client_secret parameter.');
}

function tokenBody(issued: IssuedToken): RouteResult {
  return {
    body: {
      access_token: issued.token,
      token_type: 'bearer',
      expires_in: issued.expiresAt - issued.issuedAt,
    },
  };
}

export function accessToken(ctx: RouteContext): RouteResult {
  requireApp(ctx);
  if (param(ctx, 'grant_type') === 'fb_exchange_token') {
    const short = param(ctx, 'fb_exchange_token');
    if (!short) throw invalidParameter('Missing fb_exchange_token parameter.');
    const check = ctx.state.checkToken(short);
    if (check.state === 'invalid')
      throw new GraphError(400, 190, 'Invalid OAuth access token - Cannot parse access token', 467);
    if (check.state === 'expired')
      throw new GraphError(400, 190, 'Error validating access token: Session has expired.', 463);
    return tokenBody(ctx.state.issueToken(LONG_LIVED_SECONDS));
  }
  const code = param(ctx, 'code');
  if (!code) throw invalidParameter('Missing authorization code.');
  if (code === 'invalid') throw invalidParameter('Invalid verification code format.', 36007);
  return tokenBody(ctx.state.issueToken(CODE_TOKEN_SECONDS));
}

/** The dialog approves at once and redirects with a code, like a user clicking "Continue". */
export function dialog(ctx: RouteContext): RouteResult {
  const redirect = param(ctx, 'redirect_uri');
  if (!redirect) throw invalidParameter('redirect_uri is required');
  const url = new URL(redirect);
  const state = param(ctx, 'state');
  if (param(ctx, 'response_type') === 'token') {
    const issued = ctx.state.issueToken(CODE_TOKEN_SECONDS);
    const fragment = new URLSearchParams({
      access_token: issued.token,
      expires_in: String(issued.expiresAt - issued.issuedAt),
    });
    if (state) fragment.set('state', state);
    url.hash = fragment.toString();
  } else {
    url.searchParams.set('code', `demo-code-${ctx.state.requests}`);
    if (state) url.searchParams.set('state', state);
  }
  return { status: 302, body: '', headers: { location: url.toString() } };
}

export function debugToken(ctx: RouteContext): RouteResult {
  const input = param(ctx, 'input_token');
  if (!input) throw invalidParameter('The parameter input_token is required');
  const system = ctx.state.isSystemUser(input);
  const base = {
    app_id: ctx.world.appId,
    type: system ? 'SYSTEM_USER' : 'USER',
    application: 'AdLens Demo',
    user_id: system ? systemUser(ctx).id : ctx.world.user.id,
    // A system user's token names the business it belongs to.
    ...(system ? { profile_id: ctx.world.businesses[0]?.id ?? '' } : {}),
  };
  const check = ctx.state.checkToken(input);
  const issued = ctx.state.issued.get(input);
  if (check.state === 'valid') {
    const issuedAt = issued?.issuedAt ?? 1_700_000_000;
    return {
      body: {
        data: {
          ...base,
          data_access_expires_at: system ? 0 : issuedAt + 90 * 86400,
          expires_at: ctx.state.expiresAt(input),
          is_valid: true,
          issued_at: issuedAt,
          scopes: [...SCOPES],
          granular_scopes: SCOPES.map((scope) => ({ scope })),
        },
      },
    };
  }
  const expired = check.state === 'expired';
  return {
    body: {
      data: {
        ...base,
        ...(expired ? { expires_at: check.at } : {}),
        is_valid: false,
        error: expired
          ? { code: 190, message: 'Error validating access token: Session has expired.', subcode: 463 }
          : { code: 190, message: 'Invalid OAuth access token.', subcode: 467 },
        scopes: [],
      },
    },
  };
}

/** The system user behind DEMO_SYSTEM_USER_TOKEN (what /me answers for it). */
export function systemUser(ctx: RouteContext): { id: string; name: string } {
  return { id: `61${ctx.world.user.id.slice(2)}`, name: 'AdLens Reporting (system user)' };
}
