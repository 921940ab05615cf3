// People management through the identity use cases, over a real store: owner only, never the last
// owner or oneself, and disabling or removing ends the person's sessions and keys (history stays).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../app';
import { createCore } from '../core';
import { sqliteSql } from '../store/sql';
import { createSession, findSession } from './sessions';
import { createApiKey, getApiKey } from './api-keys';
import { createUser, getUser, type User } from './users';
import { createWorkspace } from './workspaces';

let dir: string;
let app: App;
let owner: User;
let analyst: User;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'adlens-people-'));
  app = createApp(createCore({ dataDir: dir }), { renderReportsInWorker: false });
  const ws = await createWorkspace(app.core.sql, { name: 'Agency', plan: 'agency' });
  owner = await createUser(app.core.sql, { workspaceId: ws.id, email: 'owner@agency.test', role: 'owner' });
  analyst = await createUser(app.core.sql, { workspaceId: ws.id, email: 'ana@agency.test', role: 'member' });
});

afterEach(async () => {
  await app.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('people', () => {
  it('lists who has access, with roles and status, to the owner only', async () => {
    const { identity } = app.use;
    const people = await identity.listUsers(await identity.contextForUser(owner.id));
    expect(people.map((u) => [u.email, u.role, u.status])).toEqual([
      ['owner@agency.test', 'owner', 'active'],
      ['ana@agency.test', 'member', 'active'],
    ]);
    await expect(identity.listUsers(await identity.contextForUser(analyst.id))).rejects.toMatchObject({
      type: 'permission_error',
    });
    await expect(
      identity.disableUser(await identity.contextForUser(analyst.id), owner.id),
    ).rejects.toMatchObject({
      type: 'permission_error',
    });
  });

  it('disabling ends sessions and keys and refuses the person, and announces it for live streams', async () => {
    const { identity } = app.use;
    const { db, clock } = app.core;
    const session = await createSession(sqliteSql(db), clock, analyst.id);
    const key = await createApiKey(sqliteSql(db), clock, {
      workspaceId: analyst.workspaceId,
      userId: analyst.id,
      mode: 'test',
    });
    const ownerKey = await createApiKey(sqliteSql(db), clock, {
      workspaceId: owner.workspaceId,
      userId: owner.id,
      mode: 'test',
    });
    const announced: unknown[] = [];
    app.core.events.on('access.revoked', (e) => announced.push(e));

    const disabled = await identity.disableUser(await identity.contextForUser(owner.id), analyst.id);
    expect(disabled.status).toBe('disabled');
    expect(await findSession(sqliteSql(db), clock, session.token)).toBeUndefined();
    expect((await getApiKey(sqliteSql(db), key.apiKey.id))?.revokedAt).not.toBeNull();
    expect((await getApiKey(sqliteSql(db), ownerKey.apiKey.id))?.revokedAt).toBeNull();
    await expect(identity.contextForUser(analyst.id)).rejects.toThrow(/disabled/);
    expect(announced).toEqual([
      { workspaceId: analyst.workspaceId, userId: analyst.id, keyIds: [key.apiKey.id] },
    ]);

    const enabled = await identity.enableUser(await identity.contextForUser(owner.id), analyst.id);
    expect(enabled.status).toBe('active');
    expect((await identity.contextForUser(analyst.id)).userId).toBe(analyst.id);
    expect((await getApiKey(sqliteSql(db), key.apiKey.id))?.revokedAt).not.toBeNull();
  });

  it('removing keeps the row for history and releases the email for a new invitation', async () => {
    const { identity } = app.use;
    const ctx = await identity.contextForUser(owner.id);
    const removed = await identity.removeUser(ctx, analyst.id);
    expect(removed).toMatchObject({ status: 'removed', email: 'ana@agency.test' });
    expect((await getUser(app.core.sql, analyst.id))?.status).toBe('removed');
    expect((await identity.listUsers(ctx)).map((u) => u.id)).toEqual([owner.id]);
    await expect(identity.contextForUser(analyst.id)).rejects.toThrow(/no longer exists/);
    const invited = await identity.invite(ctx, { email: 'ana@agency.test', baseUrl: 'http://127.0.0.1:1' });
    expect(invited.invitation.email).toBe('ana@agency.test');
  });

  it('refuses to disable oneself or the last owner', async () => {
    const { identity } = app.use;
    const second = await createUser(app.core.sql, {
      workspaceId: owner.workspaceId,
      email: 'boss@agency.test',
      role: 'owner',
    });
    await expect(
      identity.disableUser(await identity.contextForUser(owner.id), owner.id),
    ).rejects.toMatchObject({
      type: 'invalid_request',
    });
    await identity.disableUser(await identity.contextForUser(owner.id), second.id);
    await identity.enableUser(await identity.contextForUser(owner.id), second.id);
    await identity.removeUser(await identity.contextForUser(second.id), owner.id);
    await expect(
      identity.removeUser(await identity.contextForUser(second.id), second.id),
    ).rejects.toMatchObject({
      type: 'invalid_request',
    });
  });
});
