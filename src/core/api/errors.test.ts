// An unexpected failure is 500 api_error with the request's ID, never a stack trace. The store is
// broken on purpose (a table renamed under the running server) to get one through real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseChecker } from '../../test-support/openapi-check';
import { seedScenario, type Scenario } from '../../test-support/api-scenario';
import { call, startTestApi, type TestApi } from '../../test-support/api-server';

let t: TestApi;
let s: Scenario;
beforeAll(async () => {
  t = await startTestApi();
  s = await seedScenario(t.core.db, t.clock);
});
afterAll(async () => {
  t.core.db.exec(`ALTER TABLE campaigns_gone RENAME TO campaigns`);
  await t.close();
});

describe('500 api_error', () => {
  it('answers with type api_error, the request ID in body and header, and no internals', async () => {
    const check = responseChecker(
      (await call(t.url, '/v1/openapi.json')).body as Parameters<typeof responseChecker>[0],
    );
    t.core.db.exec(`ALTER TABLE campaigns RENAME TO campaigns_gone`);
    const res = await call(t.url, '/v1/campaigns', { key: s.keys.liveA.key });
    expect(res.status).toBe(500);
    const error = (res.body as { error: { type: string; message: string; requestId: string } }).error;
    expect(error.type).toBe('api_error');
    expect(error.requestId).toBe(res.headers.get('request-id'));
    expect(res.text).not.toMatch(/campaigns|SqliteError|at \w+ \(|\.ts:/);
    check('GET', '/v1/campaigns', 500, res.body);
  });
});
