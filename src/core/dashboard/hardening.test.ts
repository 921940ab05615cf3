// Regression tests of the adversarial review (issue 12): sign-in under parallel guessing, timing that
// must not tell which emails exist, and live streams that must end when access ends.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../identity/api-keys';
import { dashboardServer, openStream, type DashboardServer } from '../../test-support/dashboard-server';
import { LOCKOUT_CLIENT_FAILURES, LOCKOUT_FAILURES } from '../identity/sessions';

let s: DashboardServer;
const PASSWORD = 'correct horse battery';

beforeEach(async () => {
  s = await dashboardServer();
});
afterEach(async () => {
  await s.close();
});

const signIn = (email: string, password: string) => s.post('/auth/sign-in', { email, password });

describe('sign-in lock-out', () => {
  it('holds against 40 wrong passwords sent at once: only the first attempts reach the hash', async () => {
    await s.member('ana@agency.test', PASSWORD);
    const statuses = await Promise.all(
      Array.from({ length: 40 }, () => signIn('ana@agency.test', 'wrong password 1').then((r) => r.status)),
    );
    expect(statuses.filter((x) => x === 401)).toHaveLength(LOCKOUT_FAILURES);
    expect(statuses.filter((x) => x === 429)).toHaveLength(40 - LOCKOUT_FAILURES);
  });

  it('does not let the right password through behind a burst of wrong ones', async () => {
    await s.member('ana@agency.test', PASSWORD);
    const wrong = Array.from({ length: 29 }, () => signIn('ana@agency.test', 'wrong password 1'));
    const right = signIn('ana@agency.test', PASSWORD);
    const statuses = await Promise.all([...wrong, right].map((p) => p.then((r) => r.status)));
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((x) => x === 200)).toHaveLength(0);
  });

  it('locks out a client address that guesses across many emails', async () => {
    for (let i = 0; i < LOCKOUT_CLIENT_FAILURES; i += 1) {
      expect((await signIn(`nobody${i}@agency.test`, 'wrong password 1')).status).toBe(401);
    }
    expect((await signIn('someone-else@agency.test', 'wrong password 1')).status).toBe(429);
  });

  it('takes as long for an unknown email as for a known one', async () => {
    await s.member('ana@agency.test', PASSWORD);
    const time = async (email: string) => {
      const started = performance.now();
      expect((await signIn(email, 'wrong password 1')).status).toBe(401);
      return performance.now() - started;
    };
    await time('warm-up@agency.test');
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      known.push(await time('ana@agency.test'));
      unknown.push(await time(`ghost${i}@agency.test`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1] as number;
    const ratio = median(unknown) / median(known);
    expect(ratio).toBeGreaterThan(0.25);
    expect(ratio).toBeLessThan(4);
  });

  it('refuses a disabled user with a clear reason once the password is right', async () => {
    const ana = await s.member('ana@agency.test', PASSWORD);
    const { identity } = s.app.use;
    await identity.disableUser(await identity.contextForUser(s.owner.id), ana.id);
    const res = await signIn('ana@agency.test', PASSWORD);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/disabled/);
  });
});

describe('live streams end with access', () => {
  it('ends a /v1/events stream within a second of its key being revoked (also from another process)', async () => {
    const { key, apiKey } = await createApiKey(s.app.core.sql, s.app.core.clock, {
      workspaceId: s.workspaceId,
      mode: 'test',
    });
    const stream = await openStream(`${s.url}/v1/events`, { 'x-api-key': key });
    // A direct store write, as `cli key revoke` in another process makes it: no event in this one.
    const revokedAt = Date.now();
    await revokeApiKey(s.app.core.sql, s.app.core.clock, apiKey.id);
    expect((await stream.ended) - revokedAt).toBeLessThan(1_000);
  });

  it('ends a /bridge/events stream within a second of signing out, and of the user being disabled', async () => {
    const ana = await s.member('ana@agency.test', PASSWORD);
    const first = await s.signIn('ana@agency.test', PASSWORD);
    const stream = await openStream(`${s.url}/bridge/events`, { cookie: first.cookie });
    const signedOutAt = Date.now();
    const out = await s.post('/auth/sign-out', {}, { cookie: first.cookie, 'x-csrf-token': first.csrf });
    expect(out.status).toBe(204);
    expect((await stream.ended) - signedOutAt).toBeLessThan(1_000);

    const second = await s.signIn('ana@agency.test', PASSWORD);
    const again = await openStream(`${s.url}/bridge/events`, { cookie: second.cookie });
    const disabledAt = Date.now();
    const { identity } = s.app.use;
    await identity.disableUser(await identity.contextForUser(s.owner.id), ana.id);
    expect((await again.ended) - disabledAt).toBeLessThan(1_000);
  });
});
