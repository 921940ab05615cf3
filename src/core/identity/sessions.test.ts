// Dashboard sessions and sign-in lock-out on both engines behind the store boundary: a session is
// found by its token until it expires or is deleted, and a burst of parallel sign-in attempts for one
// email reserves exactly the lock-out limit, however many connections the attempts arrive on.
import { afterAll, describe, expect, it } from 'vitest';
import { engineStores, ENGINES, seedWorkspaceRows } from '../../test-support/engines';
import { fixedClock } from '../clock';
import {
  clearSignInFailures,
  createSession,
  deleteSession,
  findSession,
  LOCKOUT_FAILURES,
  lockoutRemainingMs,
  reserveSignInAttempt,
  sessionAlive,
  SESSION_TTL_MS,
} from './sessions';

const engines = engineStores();
afterAll(() => engines.stop(), 60_000);

const AT = '2026-11-28T09:00:00.000Z';

describe.each(ENGINES)('dashboard sessions on %s', (engine) => {
  it('finds a session by its token until it expires or is signed out', async () => {
    const { sql, close } = await engines.open(engine);
    await seedWorkspaceRows(sql, 'ws_1', [{ id: 'usr_1', email: 'a@agency.test' }]);
    const clock = fixedClock(AT);
    const { token, session } = await createSession(sql, clock, 'usr_1');
    expect(await findSession(sql, clock, token)).toEqual(session);
    expect(await findSession(sql, clock, `${token}x`)).toBeUndefined();
    expect(await sessionAlive(sql, session.id)).toBe(true);
    const later = fixedClock(new Date(Date.parse(AT) + SESSION_TTL_MS).toISOString());
    expect(await findSession(sql, later, token)).toBeUndefined();
    expect(await sessionAlive(sql, session.id)).toBe(false);
    const second = await createSession(sql, clock, 'usr_1');
    await deleteSession(sql, second.session.id);
    expect(await findSession(sql, clock, second.token)).toBeUndefined();
    await close();
  });

  it('lets exactly the lock-out limit through a parallel burst of sign-ins for one email', async () => {
    const { sql, close } = await engines.open(engine);
    const clock = fixedClock(AT);
    const attempts = await Promise.all(
      Array.from({ length: 3 * LOCKOUT_FAILURES }, (_, i) =>
        reserveSignInAttempt(sql, clock, 'target@agency.test', `10.0.0.${i}`),
      ),
    );
    expect(attempts.filter((a) => a.allowed)).toHaveLength(LOCKOUT_FAILURES);
    expect(await lockoutRemainingMs(sql, clock, 'target@agency.test')).toBeGreaterThan(0);
    expect(await lockoutRemainingMs(sql, clock, 'other@agency.test')).toBe(0);
    await clearSignInFailures(sql, 'target@agency.test');
    expect(await lockoutRemainingMs(sql, clock, 'target@agency.test')).toBe(0);
    await close();
  });
});
