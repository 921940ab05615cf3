// Goals on a real SQLite file: an account's goal, campaign goals overriding it, clearing, validation,
// and one workspace never reading or writing another's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedAccount, seedCampaign, seedWorkspace, TestClock } from '../../test-support/api-fixtures';
import { createApp } from '../app';
import { createCore } from '../core';
import { effectiveGoal, goalsOf } from './store';

const dir = mkdtempSync(join(tmpdir(), 'adlens-goals-'));
const clock = new TestClock(Date.parse('2026-03-01T09:00:00.000Z'));
const app = createApp(createCore({ dataDir: dir, clock }), { renderReportsInWorker: false });
afterAll(async () => {
  await app.stop();
  rmSync(dir, { recursive: true, force: true });
});

const db = app.core.db;
const ws = seedWorkspace(db, { plan: 'agency' });
const account = seedAccount(db, { workspaceId: ws.workspaceId, mode: 'live', currency: 'EUR' });
const shoes = seedCampaign(db, { accountId: account.id, name: 'Shoes' });
const socks = seedCampaign(db, { accountId: account.id, name: 'Socks' });
const other = seedWorkspace(db, { plan: 'agency' });
const otherAccount = seedAccount(db, { workspaceId: other.workspaceId, mode: 'live' });
const otherCampaign = seedCampaign(db, { accountId: otherAccount.id });
const ctx = await app.use.identity.contextForUser(ws.ownerId);
const otherCtx = await app.use.identity.contextForUser(other.ownerId);

describe('goals', () => {
  it('start empty, then hold the account goal and a campaign goal that overrides it', async () => {
    expect(await app.use.goals.list(ctx, account.id)).toEqual({
      accountId: account.id,
      account: null,
      campaigns: [],
    });
    const accountGoal = await app.use.goals.set(ctx, { accountId: account.id, kind: 'ROAS', target: 3 });
    expect(accountGoal).toEqual({
      accountId: account.id,
      campaignId: null,
      kind: 'ROAS',
      target: 3,
      updatedAt: '2026-03-01T09:00:00.000Z',
    });
    // By the platform ID too, as every account lookup.
    await app.use.goals.set(ctx, {
      accountId: account.platformAccountId,
      campaignId: shoes,
      kind: 'CPA',
      target: 25,
    });
    const listed = await app.use.goals.list(ctx, account.platformAccountId);
    expect(listed.account).toMatchObject({ kind: 'ROAS', target: 3 });
    expect(listed.campaigns).toEqual([
      {
        accountId: account.id,
        campaignId: shoes,
        kind: 'CPA',
        target: 25,
        updatedAt: '2026-03-01T09:00:00.000Z',
      },
    ]);

    const goals = await goalsOf(app.core.sql, account.id);
    expect(effectiveGoal(goals, shoes)).toEqual({ kind: 'CPA', target: 25, source: 'campaign' });
    expect(effectiveGoal(goals, socks)).toEqual({ kind: 'ROAS', target: 3, source: 'account' });
  });

  it('replace a goal when set again (one per account and per campaign)', async () => {
    clock.advance(60_000);
    const updated = await app.use.goals.set(ctx, { accountId: account.id, kind: 'ROAS', target: 1 });
    expect(updated).toMatchObject({ target: 1, updatedAt: '2026-03-01T09:01:00.000Z' });
    await app.use.goals.set(ctx, { accountId: account.id, campaignId: shoes, kind: 'ROAS', target: 2.5 });
    const listed = await app.use.goals.list(ctx, account.id);
    expect(listed.account).toMatchObject({ kind: 'ROAS', target: 1 });
    expect(listed.campaigns).toHaveLength(1);
    expect(listed.campaigns[0]).toMatchObject({ campaignId: shoes, kind: 'ROAS', target: 2.5 });
  });

  it('clear a campaign goal (it follows the account again), then the account goal', async () => {
    await app.use.goals.clear(ctx, { accountId: account.id, campaignId: shoes });
    expect(effectiveGoal(await goalsOf(app.core.sql, account.id), shoes)).toEqual({
      kind: 'ROAS',
      target: 1,
      source: 'account',
    });
    await app.use.goals.set(ctx, { accountId: account.id, campaignId: socks, kind: 'CPA', target: 12 });
    await app.use.goals.clear(ctx, { accountId: account.id });
    const goals = await goalsOf(app.core.sql, account.id);
    expect(goals.account).toBeNull();
    expect(effectiveGoal(goals, shoes)).toBeNull();
    expect(effectiveGoal(goals, socks)).toEqual({ kind: 'CPA', target: 12, source: 'campaign' });
    // Clearing what is not set is not an error.
    await app.use.goals.clear(ctx, { accountId: account.id, campaignId: shoes });
    await app.use.goals.clear(ctx, { accountId: account.id, campaignId: socks });
    expect(await app.use.goals.list(ctx, account.id)).toMatchObject({ account: null, campaigns: [] });
  });

  it('refuse targets that are not a positive amount or ratio, with the reason', async () => {
    const refused = async (input: unknown) => {
      try {
        await app.use.goals.set(ctx, input as never);
      } catch (error) {
        return error as { type: string; message: string };
      }
      throw new Error('accepted');
    };
    expect(await refused({ accountId: account.id, kind: 'CPA', target: 0 })).toMatchObject({
      type: 'invalid_request',
      message: 'target: the target is above zero',
    });
    expect(await refused({ accountId: account.id, kind: 'ROAS', target: -2 })).toMatchObject({
      type: 'invalid_request',
    });
    expect((await refused({ accountId: account.id, kind: 'ROAS', target: 300 })).message).toContain('ratio');
    expect((await refused({ accountId: account.id, kind: 'CPC', target: 3 })).message).toContain(
      'CPA or ROAS',
    );
    expect((await refused({ accountId: account.id, kind: 'CPA', target: '25' })).message).toContain(
      'a number',
    );
    expect((await refused({ accountId: account.id, kind: 'CPA', target: Infinity })).type).toBe(
      'invalid_request',
    );
    expect(
      await refused({ accountId: account.id, campaignId: otherCampaign, kind: 'CPA', target: 5 }),
    ).toMatchObject({ type: 'not_found' });
    expect(await app.use.goals.list(ctx, account.id)).toMatchObject({ account: null, campaigns: [] });
  });

  it('refuse a campaign of another account of the same workspace', async () => {
    const second = seedAccount(db, { workspaceId: ws.workspaceId, mode: 'live' });
    const elsewhere = seedCampaign(db, { accountId: second.id });
    await expect(
      app.use.goals.set(ctx, { accountId: account.id, campaignId: elsewhere, kind: 'CPA', target: 5 }),
    ).rejects.toMatchObject({ type: 'invalid_request' });
  });

  it('keep each workspace to its own accounts', async () => {
    await app.use.goals.set(otherCtx, { accountId: otherAccount.id, kind: 'CPA', target: 40 });
    await expect(app.use.goals.list(ctx, otherAccount.id)).rejects.toMatchObject({
      type: 'permission_error',
    });
    await expect(
      app.use.goals.set(ctx, { accountId: otherAccount.id, kind: 'CPA', target: 1 }),
    ).rejects.toMatchObject({ type: 'permission_error' });
    await expect(app.use.goals.clear(ctx, { accountId: otherAccount.id })).rejects.toMatchObject({
      type: 'permission_error',
    });
    expect((await app.use.goals.list(otherCtx, otherAccount.id)).account).toMatchObject({
      kind: 'CPA',
      target: 40,
    });
    expect((await goalsOf(app.core.sql, account.id)).account).toBeNull();
  });
});
