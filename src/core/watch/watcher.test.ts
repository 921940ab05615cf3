// The watcher with an injected clock, against a real store and a Graph-shaped server on loopback:
// schedules that survive restarts and catch up once after a sleep, the nightly full sync in the
// account's own time zone, backoff after failures, and new data that leads — without a click — to
// one automatic diagnosis and one issue per real problem, none for a sync that changes nothing, and
// the issue resolved when the problem goes away.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../app';
import type { Clock } from '../clock';
import { createCore } from '../core';
import type { CoreEventMap } from '../events';
import { createUser } from '../identity/users';
import { createWorkspace } from '../identity/workspaces';
import {
  FAKE_ACCOUNT,
  fakeAccountState,
  startFakeAccount,
  type FakeAccountState,
} from '../../test-support/fake-account';
import { scheduleOf } from './store';

const TODAY = '2026-03-15';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A clock the test moves by hand. */
function handClock(start: string): Clock & { set(iso: string): void; advance(minutes: number): void } {
  let now = Date.parse(start);
  return {
    now: () => new Date(now),
    set: (iso) => (now = Date.parse(iso)),
    advance: (minutes) => (now += minutes * 60_000),
  };
}

async function world(state: FakeAccountState = fakeAccountState(TODAY)) {
  const server = await startFakeAccount(state);
  const dataDir = mkdtempSync(join(tmpdir(), 'adlens-watch-'));
  const clock = handClock(`${TODAY}T10:00:00Z`);
  const open = (): App =>
    createApp(createCore({ dataDir, clock }), {
      renderReportsInWorker: false,
      sync: { client: { sleep: async () => {}, backoffBaseMs: 1, maxRetries: 1 } },
    });
  let app = open();
  const workspace = await createWorkspace(app.core.sql, { name: 'Agency', plan: 'agency' });
  await createUser(app.core.sql, { workspaceId: workspace.id, email: 'owner@agency.test', role: 'owner' });
  const account = await app.sync.connectAccount({
    workspaceId: workspace.id,
    platformAccountId: FAKE_ACCOUNT,
    baseUrl: server.url,
    apiVersion: 'v25.0',
    token: 'tok',
  });
  const issueEvents: CoreEventMap['issue.changed'][] = [];
  const listen = () => app.core.events.on('issue.changed', (e) => issueEvents.push(e));
  let off = listen();
  app.watcher.listen();
  cleanups.push(
    () => server.close(),
    () => app.stop(),
  );
  return {
    state,
    clock,
    account,
    workspace,
    issueEvents,
    get app() {
      return app;
    },
    /** A new process on the same data directory. */
    async restart() {
      off();
      await app.stop();
      app = open();
      app.watcher.listen();
      off = listen();
    },
    /** One watcher pass, then every sync it started and the automatic diagnoses they led to. */
    async tick() {
      const automatic = () =>
        app.core.db
          .prepare(`SELECT id, campaign_scope FROM diagnostics WHERE trigger = 'automatic' ORDER BY rowid`)
          .all() as { id: string; campaign_scope: string }[];
      const known = automatic().length;
      const report = await app.watcher.tick();
      for (const { accountId } of report.started) await app.sync.current(accountId);
      await app.watcher.whenIdle();
      await app.diagnostics.whenIdle();
      const diagnosed = automatic()
        .slice(known)
        .map((d) => ({ diagnosticId: d.id, campaigns: (JSON.parse(d.campaign_scope) as string[]).length }));
      return { started: report.started, diagnosed };
    },
  };
}

describe('scheduled syncs', () => {
  it('sync on the interval, catch up once after a sleep, reconcile nightly in the account time zone, and survive a restart', async () => {
    const w = await world({ ...fakeAccountState(TODAY), timezone: 'America/New_York' });
    expect((await w.app.sync.syncAccount(w.account.id)).status).toBe('completed');

    // The first pass only schedules: the account was just synced.
    expect((await w.tick()).started).toEqual([]);
    const first = await scheduleOf(w.app.core.sql, w.account.id);
    expect(first).toBeDefined();
    expect(Date.parse(first!.next_incremental_at)).toBeGreaterThan(w.clock.now().getTime());
    expect(Date.parse(first!.next_incremental_at) - w.clock.now().getTime()).toBeLessThanOrEqual(60 * 60_000);

    // The slot comes: one incremental sync, and the next slot an interval later.
    w.clock.set(first!.next_incremental_at);
    expect((await w.tick()).started).toEqual([{ accountId: w.account.id, kind: 'incremental' }]);
    expect((await w.tick()).started).toEqual([]);
    const second = (await scheduleOf(w.app.core.sql, w.account.id))!;
    expect(Date.parse(second.next_incremental_at) - Date.parse(first!.next_incremental_at)).toBe(60 * 60_000);

    // The machine sleeps five hours (and the process restarts): the missed slots are caught up once.
    await w.restart();
    w.clock.advance(5 * 60 + 7);
    expect(await scheduleOf(w.app.core.sql, w.account.id)).toEqual(second);
    const caughtUp = await w.tick();
    expect(caughtUp.started).toHaveLength(1);
    expect((await w.tick()).started).toEqual([]);

    // 03:00 in the account's time zone (New York): a full reconciliation.
    const nightly = (await scheduleOf(w.app.core.sql, w.account.id))!.next_full_at;
    expect(nightly).toBe('2026-03-16T07:00:00.000Z'); // EDT began on 8 March: UTC-4
    w.clock.set(nightly);
    expect((await w.tick()).started).toEqual([{ accountId: w.account.id, kind: 'full' }]);
    expect((await scheduleOf(w.app.core.sql, w.account.id))!.next_full_at).toBe('2026-03-17T07:00:00.000Z');
  });

  it('backs off after a failed sync and skips an account whose token lapsed', async () => {
    const w = await world();
    await w.app.sync.syncAccount(w.account.id);
    await w.tick();
    w.state.failInsightsAfter = 0;
    w.clock.set((await scheduleOf(w.app.core.sql, w.account.id))!.next_incremental_at);
    expect((await w.tick()).started).toHaveLength(1);
    const failed = (await scheduleOf(w.app.core.sql, w.account.id))!;
    expect(failed.failures).toBe(1);
    expect(Date.parse(failed.backoff_until!) - w.clock.now().getTime()).toBe(15 * 60_000);
    // Within the backoff, nothing starts even when a slot passes.
    w.clock.advance(14);
    expect((await w.tick()).started).toEqual([]);
    w.state.failInsightsAfter = null;
    w.clock.advance(61);
    expect((await w.tick()).started).toHaveLength(1);
    expect(await scheduleOf(w.app.core.sql, w.account.id)).toMatchObject({
      failures: 0,
      backoff_until: null,
    });

    w.state.tokenExpired = true;
    w.clock.advance(61);
    await w.tick(); // this sync finds the token expired: the connection needs the analyst
    w.clock.advance(61);
    expect((await w.tick()).started).toEqual([]);
    expect(
      (await w.app.use.watch.schedule(await w.app.use.identity.contextForUser(ownerOf(w)), w.account.id))
        .nextSyncAt,
    ).toBeNull();
  });

  it('a workspace interval spreads accounts over it; an account interval overrides it', async () => {
    const w = await world();
    await w.app.sync.syncAccount(w.account.id);
    await w.tick();
    const ctx = await w.app.use.identity.contextForUser(ownerOf(w));
    const [workspaceWide] = await w.app.use.watch.setInterval(ctx, { minutes: 240 });
    expect(workspaceWide).toMatchObject({ intervalMinutes: 240, intervalSource: 'workspace' });
    const [own] = await w.app.use.watch.setInterval(ctx, { accountId: w.account.id, minutes: 15 });
    expect(own).toMatchObject({ intervalMinutes: 15, intervalSource: 'account' });
    expect(Date.parse(own!.nextSyncAt!) - w.clock.now().getTime()).toBeLessThanOrEqual(15 * 60_000);
    await expect(w.app.use.watch.setInterval(ctx, { minutes: 5 })).rejects.toMatchObject({
      type: 'invalid_request',
    });
  });
});

function ownerOf(w: Awaited<ReturnType<typeof world>>): string {
  return w.app.core.db.prepare(`SELECT id FROM users WHERE role = 'owner'`).pluck().get() as string;
}

describe('automatic diagnosis and issues', () => {
  it('new data leads to one issue per real problem without a click; nothing for a sync that changes nothing; resolved when it goes away', async () => {
    // Enough conversions a day for cost per result to be judged.
    const w = await world({ ...fakeAccountState(TODAY), conversionBoost: 6 });
    // The first sync (the one connecting starts) brought every campaign: as soon as it completes, one
    // automatic diagnosis of all of them.
    await w.app.sync.syncAccount(w.account.id);
    await w.app.watcher.whenIdle();
    await w.app.diagnostics.whenIdle();
    const first = w.app.core.db
      .prepare(`SELECT campaign_scope, status FROM diagnostics WHERE trigger = 'automatic'`)
      .all() as { campaign_scope: string; status: string }[];
    expect(first).toHaveLength(1);
    expect(JSON.parse(first[0]!.campaign_scope)).toHaveLength(3);
    expect(first[0]!.status).toBe('completed');
    expect((await w.tick()).diagnosed).toEqual([]);
    const baseline = w.issueEvents.length;

    // A sync that changes nothing: judged without a diagnosis, no issue event.
    w.clock.set((await scheduleOf(w.app.core.sql, w.account.id))!.next_incremental_at);
    const quiet = await w.tick();
    expect(quiet.started).toHaveLength(1);
    expect(quiet.diagnosed).toEqual([]);
    expect(w.issueEvents.length).toBe(baseline);

    // Campaign 2's conversions collapse for the last week: the next scheduled sync, not a click, opens it.
    w.state.conversionCut = { campaignId: '102', from: '2026-03-06', share: 0.4 };
    w.clock.advance(61);
    const bad = await w.tick();
    expect(bad.started).toHaveLength(1);
    expect(bad.diagnosed).toHaveLength(1);
    expect(bad.diagnosed[0]?.campaigns).toBe(1); // only what changed is re-judged
    const opened = w.issueEvents
      .slice(baseline)
      .filter((e) => e.change === 'opened' || e.change === 'reopened');
    expect(opened.length).toBeGreaterThan(0);
    const campaign2 = w.app.core.db
      .prepare(`SELECT id FROM campaigns WHERE platform_campaign_id = '102'`)
      .pluck()
      .get() as string;
    expect(opened.every((e) => e.campaignId === campaign2)).toBe(true);
    const ctx = await w.app.use.identity.contextForUser(ownerOf(w));
    const live = await w.app.use.issues.list(ctx, { campaignId: campaign2 });
    expect(live.items.map((i) => i.type)).toContain('CPA_DEGRADATION');
    const issue = live.items.find((i) => i.type === 'CPA_DEGRADATION')!;
    expect(issue.state).toBe('open');
    expect(issue.history.map((h) => h.change)).toEqual(['opened']);

    // The same problem at the next sync: still one issue, no new event.
    const before = w.issueEvents.length;
    w.clock.advance(61);
    const same = await w.tick();
    expect(same.diagnosed).toEqual([]); // the re-read changed nothing
    expect(w.issueEvents.length).toBe(before);

    // The analyst acknowledges it; the problem goes away: resolved, once.
    await w.app.use.issues.acknowledge(ctx, issue.id);
    w.state.conversionCut = null;
    w.clock.advance(61);
    const fixed = await w.tick();
    expect(fixed.diagnosed).toHaveLength(1);
    const resolved = w.issueEvents.filter((e) => e.issueId === issue.id && e.change === 'resolved');
    expect(resolved).toHaveLength(1);
    const after = await w.app.use.issues.get(ctx, issue.id);
    expect(after.state).toBe('resolved');
    expect(after.history.map((h) => h.change)).toEqual(['opened', 'acknowledged', 'resolved']);
    expect(
      (await w.app.use.issues.list(ctx, { campaignId: campaign2 })).items.map((i) => i.id),
    ).not.toContain(issue.id);
  });
});
