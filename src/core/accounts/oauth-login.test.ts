// The loopback login end to end against the demo platform's OAuth endpoints, fetch playing the browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoPlatform, type DemoPlatform } from '../demo-platform';
import { startLoopbackLogin } from './oauth-login';

let demo: DemoPlatform;
beforeAll(async () => {
  demo = await startDemoPlatform({ seed: 1, today: '2026-11-22' });
});
afterAll(() => demo.close());

const options = () => ({ appId: '1234', appSecret: 'secret', graphUrl: demo.url, dialogUrl: demo.url });

describe('loopback login', () => {
  it('opens the dialog, receives the code on 127.0.0.1, and ends with a long-lived token', async () => {
    const login = await startLoopbackLogin(options());
    const authorize = new URL(login.authorizeUrl);
    const redirect = new URL(authorize.searchParams.get('redirect_uri') ?? '');
    expect(redirect.hostname).toBe('127.0.0.1');
    expect(Number(redirect.port)).toBeGreaterThan(0);
    expect(authorize.searchParams.get('state')?.length).toBeGreaterThanOrEqual(32);
    // The browser: the dialog redirects, the redirect lands on our listener.
    const dialog = await fetch(login.authorizeUrl, { redirect: 'manual' });
    expect(dialog.status).toBe(302);
    const back = dialog.headers.get('location') ?? '';
    // A forged callback (wrong state) is refused and does not end the login.
    const forged = new URL(back);
    forged.searchParams.set('state', 'not-ours');
    expect((await fetch(forged)).status).toBe(400);
    expect((await fetch(back)).status).toBe(200);
    const { token, expiresAt } = await login.result;
    const debug = (await (await fetch(`${demo.url}/debug_token?input_token=${token}`)).json()) as {
      data: { is_valid: boolean; expires_at: number };
    };
    expect(debug.data.is_valid).toBe(true);
    const days = (Date.parse(expiresAt ?? '') - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(59);
    // One-shot: the listener is gone.
    await expect(fetch(back)).rejects.toThrow();
  });

  it('fails with a clear error when the platform refuses the code, and when cancelled', async () => {
    const login = await startLoopbackLogin(options());
    const state = new URL(login.authorizeUrl).searchParams.get('state') ?? '';
    const redirect = new URL(login.authorizeUrl).searchParams.get('redirect_uri') ?? '';
    await fetch(`${redirect}?code=invalid&state=${state}`);
    await expect(login.result).rejects.toMatchObject({ type: 'authentication_error' });
    const other = await startLoopbackLogin(options());
    other.cancel();
    await expect(other.result).rejects.toMatchObject({ type: 'invalid_request' });
  });
});
