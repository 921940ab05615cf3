// Rate limits across the processes of a team server, over real HTTP: two /v1 servers, each with its own
// authenticator, response cache and limiter, count a key's requests in one PostgreSQL database (the
// team's `PgRateLimiter`), so 120 reads a minute is the key's total however the reads are spread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedKey } from '../../test-support/api-fixtures';
import { seedScenario } from '../../test-support/api-scenario';
import { call, startTestApi, type TestApi } from '../../test-support/api-server';
import { startTestPostgres, type TestPostgres } from '../../test-support/postgres';
import { systemClock } from '../clock';
import { connectPg, type PgPool } from '../store/pg/connect';
import { migratePg } from '../store/pg/migrate';
import { PgRateLimiter } from './rate-limit-pg';
import { createApiServer, type ApiServer } from './server';

let postgres: TestPostgres;
let pools: PgPool[];
let first: TestApi;
let second: ApiServer;

beforeAll(async () => {
  postgres = await startTestPostgres();
  const url = await postgres.createDatabase();
  pools = [connectPg(url, { max: 2 }), connectPg(url, { max: 2 })];
  await migratePg(pools[0] as PgPool);
  // Each server's limiter is its own object on its own pool: all the two share is the database, as
  // two serve processes would. (The same application answers behind both.)
  const [a, b] = pools as [PgPool, PgPool];
  first = await startTestApi({ server: { rateLimits: new PgRateLimiter(a, systemClock) } });
  second = await createApiServer(first.app, { port: 0, rateLimits: new PgRateLimiter(b, systemClock) });
}, 120_000);

afterAll(async () => {
  await second?.close();
  await first?.close();
  for (const pool of pools ?? []) await pool.end();
  await postgres?.stop();
}, 60_000);

describe('rate limits shared by two servers on one database', () => {
  it('refuses the 121st read of a minute on either server, whichever served the first 120', async () => {
    const s = await seedScenario(first.core.db, first.clock);
    const { key } = await seedKey(first.core.db, first.clock, { workspaceId: s.a.workspaceId });
    const remaining: number[] = [];
    for (let i = 0; i < 120; i++) {
      const res = await call(i % 2 === 0 ? first.url : second.url, '/v1/accounts', { key });
      expect(res.status).toBe(200);
      remaining.push((res.body as { meta: { remaining_requests: number } }).meta.remaining_requests);
    }
    // One count: each server reports what is left of the key's total, not of its own share.
    expect(remaining.slice(0, 3)).toEqual([119, 118, 117]);
    expect(remaining.at(-1)).toBe(0);
    for (const url of [first.url, second.url]) {
      const refused = await call(url, '/v1/accounts', { key });
      expect(refused.status).toBe(429);
      const error = (refused.body as { error: { type: string; message: string } }).error;
      expect(error.type).toBe('rate_limit_error');
      expect(error.message).toMatch(/retry in \d+ seconds?/);
    }
    // A read runs alongside its decision, but a refused one is answered as refused whatever it asked:
    // an invalid query past the limit gets the 429 (twice: the second refused without the database).
    for (const url of [first.url, first.url]) {
      const invalid = await call(url, '/v1/accounts?page=zero', { key });
      expect(invalid.status).toBe(429);
    }
    // Another key of the same workspace has its own minute, and its invalid query is a 400.
    const other = await seedKey(first.core.db, first.clock, { workspaceId: s.a.workspaceId });
    expect((await call(second.url, '/v1/accounts', { key: other.key })).status).toBe(200);
    expect((await call(second.url, '/v1/accounts?page=zero', { key: other.key })).status).toBe(400);
  }, 120_000);
});
