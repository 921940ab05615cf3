import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../store/open';
import { createUser, getUser, getWorkspaceOwner, listUsers } from './users';
import { createWorkspace, getWorkspace, listWorkspaces, requireWorkspace } from './workspaces';

const db = () => openStore(mkdtempSync(join(tmpdir(), 'adlens-identity-'))).db;

describe('workspaces and users', () => {
  it('creates, lists and finds workspaces with service IDs', () => {
    const store = db();
    const a = createWorkspace(store, { name: ' Acme ', plan: 'agency' });
    const b = createWorkspace(store, { name: 'Trial', plan: 'trial' });
    expect(a).toMatchObject({ name: 'Acme', plan: 'agency' });
    expect(a.id).toMatch(/^ws_[0-9A-Za-z]{16}$/);
    expect(listWorkspaces(store).map((w) => w.id)).toEqual([a.id, b.id]);
    expect(getWorkspace(store, b.id)).toEqual(b);
    expect(getWorkspace(store, 'ws_missing')).toBeUndefined();
    expect(() => requireWorkspace(store, 'ws_missing')).toThrow(
      expect.objectContaining({ type: 'not_found' }),
    );
    expect(() => createWorkspace(store, { name: '', plan: 'agency' })).toThrow(
      expect.objectContaining({ type: 'invalid_request' }),
    );
    expect(() => createWorkspace(store, { name: 'X', plan: 'gold' as 'agency' })).toThrow(
      expect.objectContaining({ type: 'invalid_request' }),
    );
  });

  it('creates users, one email per workspace, and finds the local owner', () => {
    const store = db();
    const ws = createWorkspace(store, { name: 'Acme', plan: 'agency' });
    const member = createUser(store, { workspaceId: ws.id, email: 'Ana@Example.com' });
    expect(member).toMatchObject({ email: 'ana@example.com', role: 'member', name: null });
    expect(getWorkspaceOwner(store, ws.id)).toBeUndefined();
    const owner = createUser(store, {
      workspaceId: ws.id,
      email: 'owner@example.com',
      name: 'Olga',
      role: 'owner',
    });
    expect(getWorkspaceOwner(store, ws.id)).toEqual(owner);
    expect(getUser(store, member.id)).toEqual(member);
    expect(listUsers(store, ws.id)).toHaveLength(2);
    expect(() => createUser(store, { workspaceId: ws.id, email: 'ana@example.com' })).toThrow(
      expect.objectContaining({ type: 'conflict' }),
    );
    expect(() => createUser(store, { workspaceId: 'ws_nope', email: 'x@example.com' })).toThrow(
      expect.objectContaining({ type: 'not_found' }),
    );
    expect(() => createUser(store, { workspaceId: ws.id, email: 'not-an-email' })).toThrow(
      expect.objectContaining({ type: 'invalid_request' }),
    );
  });
});
