import { sqliteSql } from '../store/sql';
import { afterEach, describe, expect, it } from 'vitest';
import { seedWorkspace, TestClock, tempCore } from '../../test-support/api-fixtures';
import { createApiKey, findApiKeyBySecret, isWellFormedApiKey, listApiKeys, revokeApiKey } from './api-keys';

let cleanup: (() => void) | undefined;
afterEach(async () => cleanup?.());

function setup() {
  const clock = new TestClock(Date.parse('2026-03-10T12:00:00.000Z'));
  const t = tempCore(clock);
  cleanup = t.cleanup;
  return { clock, db: t.core.db, ws: seedWorkspace(t.core.db, { plan: 'agency' }) };
}

describe('api keys', () => {
  it('creates keys of both modes bound to the owner, finds them by secret only, revokes once', async () => {
    const { clock, db, ws } = setup();
    const live = await createApiKey(sqliteSql(db), clock, { workspaceId: ws.workspaceId });
    const test = await createApiKey(sqliteSql(db), clock, {
      workspaceId: ws.workspaceId,
      mode: 'test',
      name: 'ci',
    });
    expect(isWellFormedApiKey(live.key) && isWellFormedApiKey(test.key)).toBe(true);
    expect(live.apiKey).toMatchObject({ mode: 'live', userId: ws.ownerId, revokedAt: null });
    expect(test.key.startsWith('service_test_')).toBe(true);
    expect((await findApiKeyBySecret(sqliteSql(db), test.key))?.id).toBe(test.apiKey.id);
    expect(JSON.stringify(await listApiKeys(sqliteSql(db), ws.workspaceId))).not.toContain(live.key);
    const first = (await revokeApiKey(sqliteSql(db), clock, live.apiKey.id)).revokedAt;
    clock.advance(1000);
    expect((await revokeApiKey(sqliteSql(db), clock, live.apiKey.id)).revokedAt).toBe(first);
    await expect(
      createApiKey(sqliteSql(db), clock, { workspaceId: ws.workspaceId, userId: 'user_other' }),
    ).rejects.toThrow();
    await expect(
      createApiKey(sqliteSql(db), clock, { workspaceId: ws.workspaceId, limitOverrides: { reads: 0 } }),
    ).rejects.toThrow();
  });
});
