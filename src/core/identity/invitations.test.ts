import { sqliteSql } from '../store/sql';
import { afterEach, describe, expect, it } from 'vitest';
import { seedWorkspace, TestClock, tempCore } from '../../test-support/api-fixtures';
import { createApiKey, findApiKeyBySecret, isWellFormedApiKey, listApiKeys, revokeApiKey } from './api-keys';
import { createInvitation, findOpenInvitation, markInvitationAccepted, recordServerUrl } from './invitations';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function setup() {
  const clock = new TestClock(Date.parse('2026-03-10T12:00:00.000Z'));
  const t = tempCore(clock);
  cleanup = t.cleanup;
  return { clock, db: t.core.db, ws: seedWorkspace(t.core.db, { plan: 'agency' }) };
}

describe('invitations', () => {
  it('gives a one-time link valid 7 days on the recorded server URL', async () => {
    const { clock, db, ws } = setup();
    recordServerUrl(db, 'http://127.0.0.1:5555');
    const { token, url, invitation } = createInvitation(db, clock, {
      workspaceId: ws.workspaceId,
      email: 'a@b.co',
    });
    expect(url).toBe(`http://127.0.0.1:5555/invite/${token}`);
    expect(findOpenInvitation(db, clock, token).id).toBe(invitation.id);
    markInvitationAccepted(db, clock, invitation.id, ws.ownerId);
    expect(() => findOpenInvitation(db, clock, token)).toThrow(/already used or expired/);
    expect(() => markInvitationAccepted(db, clock, invitation.id, ws.ownerId)).toThrow();
    const second = createInvitation(db, clock, { workspaceId: ws.workspaceId, email: 'c@d.co' });
    clock.advance(7 * 86_400_000);
    expect(() => findOpenInvitation(db, clock, second.token)).toThrow();
    expect(() => findOpenInvitation(db, clock, 'x'.repeat(40))).toThrow();
  });
  it('refuses a bad email, an unknown workspace and a current member', async () => {
    const { clock, db, ws } = setup();
    expect(() => createInvitation(db, clock, { workspaceId: ws.workspaceId, email: 'nope' })).toThrow(
      /email/,
    );
    expect(() => createInvitation(db, clock, { workspaceId: 'ws_none', email: 'a@b.co' })).toThrow(
      /workspace/,
    );
    const owner = db.prepare(`SELECT email FROM users WHERE id = ?`).pluck().get(ws.ownerId) as string;
    expect(() => createInvitation(db, clock, { workspaceId: ws.workspaceId, email: owner })).toThrow(
      /member/,
    );
  });
});

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
