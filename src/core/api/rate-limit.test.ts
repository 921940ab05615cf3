import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setApiKeyLimits } from '../identity/api-keys';
import { DEFAULT_LIMITS, RateLimiter } from './rate-limit';
import { seedScenario, type Scenario } from '../../test-support/api-scenario';
import { seedKey, TestClock } from '../../test-support/api-fixtures';
import { call, startTestApi, type TestApi } from '../../test-support/api-server';

describe('RateLimiter', () => {
  it('slides: requests leave the window 60 s after they were made', () => {
    const clock = new TestClock(0);
    const limiter = new RateLimiter(clock);
    const limits = { ...DEFAULT_LIMITS, reads: 4 };
    expect(limiter.take('k', ['reads'], limits)).toMatchObject({ ok: true, remaining: 3 });
    expect(limiter.take('k', ['reads'], limits)).toMatchObject({ ok: true, remaining: 2 });
    clock.advance(30_000);
    limiter.take('k', ['reads'], limits);
    limiter.take('k', ['reads'], limits);
    expect(limiter.take('k', ['reads'], limits)).toEqual({
      ok: false,
      retryAfterSeconds: 30,
      counter: 'reads',
    });
    clock.advance(30_000); // the first two are exactly 60 s old: out of the window
    expect(limiter.take('k', ['reads'], limits)).toMatchObject({ ok: true, remaining: 1 });
    expect(limiter.take('k', ['reads'], limits)).toMatchObject({ ok: true, remaining: 0 });
    expect(limiter.take('k', ['reads'], limits)).toMatchObject({ ok: false, retryAfterSeconds: 30 });
  });
  it('checks every counter and records in none when one refuses', () => {
    const clock = new TestClock(0);
    const limiter = new RateLimiter(clock);
    const limits = { reads: 100, writes: 3, diagnostics: 1, reports: 1 };
    expect(limiter.take('k', ['writes', 'diagnostics'], limits)).toMatchObject({
      ok: true,
      remaining: 0,
      counter: 'diagnostics',
    });
    expect(limiter.take('k', ['writes', 'diagnostics'], limits)).toMatchObject({
      ok: false,
      counter: 'diagnostics',
    });
    // The refused request did not use a write: two writes are left.
    expect(limiter.take('k', ['writes', 'reports'], limits)).toMatchObject({
      ok: true,
      remaining: 0,
      counter: 'reports',
    });
    expect(limiter.take('k', ['writes'], limits)).toMatchObject({
      ok: true,
      remaining: 0,
      counter: 'writes',
    });
    expect(limiter.take('k', ['writes'], limits)).toMatchObject({ ok: false, counter: 'writes' });
    expect(limiter.take('other', ['writes'], limits)).toMatchObject({ ok: true });
  });
});

describe('rate limits over HTTP', () => {
  let t: TestApi;
  let s: Scenario;
  beforeAll(async () => {
    t = await startTestApi();
    s = await seedScenario(t.core.db, t.clock);
  });
  afterAll(async () => {
    await t.close();
  });

  it('allows 120 reads a minute per key, then 429 naming the wait, and resets after the window', async () => {
    const { key } = await seedKey(t.core.db, t.clock, { workspaceId: s.a.workspaceId });
    const remaining: number[] = [];
    for (let i = 0; i < 120; i++) {
      const res = await call(t.url, '/v1/accounts', { key });
      expect(res.status).toBe(200);
      remaining.push((res.body as { meta: { remaining_requests: number } }).meta.remaining_requests);
    }
    expect(remaining[0]).toBe(119);
    expect(remaining[119]).toBe(0);
    t.clock.advance(17_000);
    const refused = await call(t.url, '/v1/accounts', { key });
    expect(refused.status).toBe(429);
    const error = (refused.body as { error: { type: string; message: string } }).error;
    expect(error.type).toBe('rate_limit_error');
    expect(error.message).toMatch(/retry in 43 seconds/);
    for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']) {
      expect(refused.headers.get(header)).toBeNull();
    }
    // Another key of the same workspace has its own counters.
    const other = await seedKey(t.core.db, t.clock, { workspaceId: s.a.workspaceId });
    expect((await call(t.url, '/v1/accounts', { key: other.key })).status).toBe(200);
    t.clock.advance(43_000);
    const after = await call(t.url, '/v1/accounts', { key });
    expect(after.status).toBe(200);
    expect((after.body as { meta: { remaining_requests: number } }).meta.remaining_requests).toBe(119);
  });

  it('allows 10 writes a minute, counted apart from reads', async () => {
    const { key } = await seedKey(t.core.db, t.clock, { workspaceId: s.a.workspaceId });
    for (let i = 0; i < 10; i++) {
      // An account whose token expired: 400, but the write was made and counts.
      expect((await call(t.url, `/v1/accounts/${s.a3.id}/sync`, { key, method: 'POST' })).status).toBe(400);
    }
    const refused = await call(t.url, `/v1/accounts/${s.a3.id}/sync`, { key, method: 'POST' });
    expect(refused.status).toBe(429);
    expect((await call(t.url, '/v1/accounts', { key })).status).toBe(200);
    t.clock.advance(60_000);
    expect((await call(t.url, `/v1/accounts/${s.a3.id}/sync`, { key, method: 'POST' })).status).toBe(400);
  });

  it('counts diagnostic runs (10) and report generations (5) on their own counters', async () => {
    const { key, id } = await seedKey(t.core.db, t.clock, { workspaceId: s.a.workspaceId });
    await setApiKeyLimits(t.core.sql, id, { writes: 1000 });
    const badDiagnostic = { account_id: 'act_x!' };
    for (let i = 0; i < 10; i++) {
      expect((await call(t.url, '/v1/diagnostics', { key, body: badDiagnostic })).status).toBe(400);
    }
    const diagRefused = await call(t.url, '/v1/diagnostics', { key, body: badDiagnostic });
    expect(diagRefused.status).toBe(429);
    expect((diagRefused.body as { error: { message: string } }).error.message).toMatch(/diagnostics/);
    const badReport = { account_id: 'act_x!', title: 't', date_start: '2026-03-01', date_end: '2026-03-02' };
    for (let i = 0; i < 5; i++) {
      expect((await call(t.url, '/v1/reports', { key, body: badReport })).status).toBe(400);
    }
    expect((await call(t.url, '/v1/reports', { key, body: badReport })).status).toBe(429);
    // Writes of another kind are still allowed.
    expect((await call(t.url, `/v1/accounts/${s.a3.id}/sync`, { key, method: 'POST' })).status).toBe(400);
    t.clock.advance(60_000);
    expect((await call(t.url, '/v1/diagnostics', { key, body: badDiagnostic })).status).toBe(400);
    expect((await call(t.url, '/v1/reports', { key, body: badReport })).status).toBe(400);
  });

  it('shares the write counter between diagnostics, reports and syncs by default', async () => {
    const { key } = await seedKey(t.core.db, t.clock, { workspaceId: s.a.workspaceId });
    for (let i = 0; i < 5; i++) await call(t.url, '/v1/diagnostics', { key, body: { account_id: 'act_x!' } });
    for (let i = 0; i < 5; i++) await call(t.url, `/v1/accounts/${s.a3.id}/sync`, { key, method: 'POST' });
    const refused = await call(t.url, '/v1/diagnostics', { key, body: { account_id: 'act_x!' } });
    expect(refused.status).toBe(429);
    expect((refused.body as { error: { message: string } }).error.message).toMatch(/writes/);
  });

  it('honours per-key raised limits', async () => {
    const { key } = await seedKey(t.core.db, t.clock, {
      workspaceId: s.a.workspaceId,
      limitOverrides: { reads: 1000 },
    });
    const res = await call(t.url, '/v1/accounts', { key });
    expect((res.body as { meta: { remaining_requests: number } }).meta.remaining_requests).toBe(999);
  });
});
