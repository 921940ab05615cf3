// Workspaces, users, invitations and settings behind the store boundary, on SQLite and on a real
// PostgreSQL: the same cases, the same answers.
import { afterAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../clock';
import { TestClock } from '../../test-support/api-fixtures';
import { readSetting, settingOrInit, writeSetting } from '../settings/store';
import { engineStores, ENGINES } from '../../test-support/engines';
import {
  createInvitation,
  findOpenInvitation,
  listInvitations,
  markInvitationAccepted,
  recordServerUrl,
} from './invitations';
import {
  createUser,
  endSessionsOf,
  getUser,
  getWorkspaceOwner,
  listUsers,
  markUserRemoved,
  setPasswordHash,
  setUserDisabled,
  signInCandidates,
} from './users';
import { createWorkspace, getWorkspace, listWorkspaces, requireWorkspace } from './workspaces';

const engines = engineStores();
afterAll(() => engines.stop(), 60_000);

describe.each(ENGINES)('identity stores on %s', (engine) => {
  it('creates, lists and finds workspaces with service IDs', async () => {
    const { sql, close } = await engines.open(engine);
    const a = await createWorkspace(
      sql,
      { name: ' Acme ', plan: 'agency' },
      new Date('2026-01-01T00:00:00Z'),
    );
    const b = await createWorkspace(sql, { name: 'Trial', plan: 'trial' }, new Date('2026-01-02T00:00:00Z'));
    expect(a).toMatchObject({ name: 'Acme', plan: 'agency' });
    expect(a.id).toMatch(/^ws_[0-9A-Za-z]{16}$/);
    expect((await listWorkspaces(sql)).map((w) => w.id)).toEqual([a.id, b.id]);
    expect(await getWorkspace(sql, b.id)).toEqual(b);
    expect(await getWorkspace(sql, 'ws_missing')).toBeUndefined();
    await expect(requireWorkspace(sql, 'ws_missing')).rejects.toMatchObject({ type: 'not_found' });
    await expect(createWorkspace(sql, { name: '', plan: 'agency' })).rejects.toMatchObject({
      type: 'invalid_request',
    });
    await expect(createWorkspace(sql, { name: 'X', plan: 'gold' as 'agency' })).rejects.toMatchObject({
      type: 'invalid_request',
    });
    await close();
  });

  it('creates users, one email per workspace, finds the local owner, disables and removes', async () => {
    const { sql, close } = await engines.open(engine);
    const ws = await createWorkspace(sql, { name: 'Acme', plan: 'agency' });
    const member = await createUser(sql, { workspaceId: ws.id, email: 'Ana@Example.com' });
    expect(member).toMatchObject({ email: 'ana@example.com', role: 'member', name: null, status: 'active' });
    expect(await getWorkspaceOwner(sql, ws.id)).toBeUndefined();
    const owner = await createUser(
      sql,
      { workspaceId: ws.id, email: 'owner@example.com', name: 'Olga', role: 'owner' },
      new Date(Date.now() + 1000),
    );
    expect(await getWorkspaceOwner(sql, ws.id)).toEqual(owner);
    expect(await getUser(sql, member.id)).toEqual(member);
    // Owners first, then by arrival.
    expect((await listUsers(sql, ws.id)).map((u) => u.id)).toEqual([owner.id, member.id]);
    await expect(createUser(sql, { workspaceId: ws.id, email: 'ana@example.com' })).rejects.toMatchObject({
      type: 'conflict',
    });
    await expect(createUser(sql, { workspaceId: 'ws_nope', email: 'x@example.com' })).rejects.toMatchObject({
      type: 'not_found',
    });
    await expect(createUser(sql, { workspaceId: ws.id, email: 'not-an-email' })).rejects.toMatchObject({
      type: 'invalid_request',
    });

    await setPasswordHash(sql, member.id, 'hash-1');
    expect(await signInCandidates(sql, 'ana@example.com')).toEqual([
      { id: member.id, password_hash: 'hash-1', disabled_at: null },
    ]);
    await setUserDisabled(sql, member.id, '2026-03-01T00:00:00.000Z');
    expect((await getUser(sql, member.id))?.status).toBe('disabled');
    await setUserDisabled(sql, member.id, null);
    expect((await getUser(sql, member.id))?.status).toBe('active');
    expect(await endSessionsOf(sql, member.id)).toBe(0);
    await markUserRemoved(sql, member.id, '2026-03-02T00:00:00.000Z');
    // The row stays for history, under its old address; the address is free for a new invitation.
    expect(await getUser(sql, member.id)).toMatchObject({ status: 'removed', email: 'ana@example.com' });
    expect(await signInCandidates(sql, 'ana@example.com')).toEqual([]);
    expect(await createUser(sql, { workspaceId: ws.id, email: 'ana@example.com' })).toMatchObject({
      status: 'active',
    });
    await close();
  });

  it('gives a one-time invitation link valid 7 days on the recorded server URL', async () => {
    const { sql, close } = await engines.open(engine);
    const clock = new TestClock(Date.parse('2026-03-10T12:00:00.000Z'));
    const ws = await createWorkspace(sql, { name: 'Acme', plan: 'agency' });
    const owner = await createUser(sql, { workspaceId: ws.id, email: 'owner@acme.test', role: 'owner' });
    await recordServerUrl(sql, 'http://127.0.0.1:5555');
    const { token, url, invitation } = await createInvitation(sql, clock, {
      workspaceId: ws.id,
      email: 'a@b.co',
    });
    expect(url).toBe(`http://127.0.0.1:5555/invite/${token}`);
    expect((await findOpenInvitation(sql, clock, token)).id).toBe(invitation.id);
    await markInvitationAccepted(sql, clock, invitation.id, owner.id);
    await expect(findOpenInvitation(sql, clock, token)).rejects.toThrow(/already used or expired/);
    await expect(markInvitationAccepted(sql, clock, invitation.id, owner.id)).rejects.toThrow();
    clock.advance(1000); // listed by creation time
    const second = await createInvitation(sql, clock, { workspaceId: ws.id, email: 'c@d.co' });
    expect((await listInvitations(sql, ws.id)).map((i) => i.email)).toEqual(['a@b.co', 'c@d.co']);
    clock.advance(7 * 86_400_000);
    await expect(findOpenInvitation(sql, clock, second.token)).rejects.toThrow();
    await expect(findOpenInvitation(sql, clock, 'x'.repeat(40))).rejects.toThrow();
    await expect(createInvitation(sql, clock, { workspaceId: ws.id, email: 'nope' })).rejects.toThrow(
      /email/,
    );
    await expect(createInvitation(sql, clock, { workspaceId: 'ws_none', email: 'a@b.co' })).rejects.toThrow(
      /workspace/,
    );
    await expect(
      createInvitation(sql, fixedClock('2026-03-10T12:00:00.000Z'), {
        workspaceId: ws.id,
        email: 'OWNER@acme.test',
      }),
    ).rejects.toThrow(/member/);
    await close();
  });

  it('reads, writes, removes and initialises settings once', async () => {
    const { sql, close } = await engines.open(engine);
    expect(await readSetting(sql, 'k')).toBeUndefined();
    await writeSetting(sql, 'k', 'one');
    await writeSetting(sql, 'k', 'two');
    expect(await readSetting(sql, 'k')).toBe('two');
    await writeSetting(sql, 'k', null);
    expect(await readSetting(sql, 'k')).toBeUndefined();
    expect(await settingOrInit(sql, 'secret', () => 'first')).toBe('first');
    expect(await settingOrInit(sql, 'secret', () => 'second')).toBe('first');
    await close();
  });
});
