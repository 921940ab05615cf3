// API keys on both engines behind the store boundary: a key belongs to the workspace owner unless
// given a user, is found only by its secret (stored hashed), keeps its first revocation time, and a
// user's live keys are revoked together.
import { afterAll, describe, expect, it } from 'vitest';
import { engineStores, ENGINES, seedWorkspaceRows } from '../../test-support/engines';
import { fixedClock } from '../clock';
import {
  createApiKey,
  findApiKeyBySecret,
  hashApiKey,
  listApiKeys,
  revokeApiKey,
  revokeKeysOfUser,
  setApiKeyLimits,
} from './api-keys';

const engines = engineStores();
afterAll(() => engines.stop(), 60_000);

const AT = '2026-11-28T09:00:00.000Z';

describe.each(ENGINES)('API keys on %s', (engine) => {
  it('creates, finds by secret, limits and revokes keys in the workspace', async () => {
    const { sql, close } = await engines.open(engine);
    const clock = fixedClock(AT);
    await seedWorkspaceRows(sql, 'ws_1', [
      { id: 'usr_member', email: 'm@agency.test' },
      { id: 'usr_owner', email: 'o@agency.test', role: 'owner' },
    ]);
    const owned = await createApiKey(sql, clock, { workspaceId: 'ws_1', name: 'reporting' });
    expect(owned.apiKey).toMatchObject({
      userId: 'usr_owner',
      mode: 'live',
      revokedAt: null,
      limitOverrides: null,
    });
    const member = await createApiKey(sql, clock, {
      workspaceId: 'ws_1',
      userId: 'usr_member',
      mode: 'test',
    });
    const second = await createApiKey(sql, clock, { workspaceId: 'ws_1', userId: 'usr_member' });
    await expect(createApiKey(sql, clock, { workspaceId: 'ws_none' })).rejects.toMatchObject({
      type: 'not_found',
    });
    expect((await findApiKeyBySecret(sql, member.key))?.id).toBe(member.apiKey.id);
    expect(await findApiKeyBySecret(sql, hashApiKey(member.key))).toBeUndefined();
    expect((await setApiKeyLimits(sql, owned.apiKey.id, { reads: 600 })).limitOverrides).toEqual({
      reads: 600,
    });
    const first = await revokeApiKey(sql, clock, owned.apiKey.id);
    const again = await revokeApiKey(sql, fixedClock('2026-11-29T09:00:00.000Z'), owned.apiKey.id);
    expect(again.revokedAt).toBe(first.revokedAt);
    expect((await revokeKeysOfUser(sql, clock, 'usr_member')).sort()).toEqual(
      [member.apiKey.id, second.apiKey.id].sort(),
    );
    expect((await listApiKeys(sql, 'ws_1')).every((k) => k.revokedAt === AT)).toBe(true);
    expect(JSON.stringify(await listApiKeys(sql, 'ws_1'))).not.toContain(member.key);
    await close();
  });
});
