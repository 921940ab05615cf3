// End to end, without a click: a Graph-shaped account on loopback whose data turns bad between two
// scheduled syncs, the watcher driven by an injected clock, and real receivers — a webhook server and
// an SMTP server. The next scheduled sync leads to one signed webhook call and one e-mail per new
// issue, nothing for a sync that changes nothing, a resolved alert when the problem goes away, and a
// sync.failed alert when a sync fails. Retries survive a restart.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../app';
import { createCore } from '../core';
import type { CoreEventMap } from '../events';
import { createUser } from '../identity/users';
import { createWorkspace } from '../identity/workspaces';
import { FAKE_ACCOUNT, fakeAccountState, startFakeAccount } from '../../test-support/fake-account';
import { scheduleOf } from '../watch/store';
import { handClock, smtpReceiver, validSignature, webhookReceiver } from '../../test-support/alert-receivers';
import { deliveriesOf } from './store';

const TODAY = '2026-03-15';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('alerts from the watch', () => {
  it('new data turning bad leads to one signed webhook call and one e-mail per new issue; none for a quiet sync; resolved when fixed', async () => {
    const state = { ...fakeAccountState(TODAY), conversionBoost: 6 };
    const server = await startFakeAccount(state);
    const dataDir = mkdtempSync(join(tmpdir(), 'adlens-watch-alerts-'));
    const clock = handClock(`${TODAY}T10:00:00Z`);
    const open = (): App =>
      createApp(createCore({ dataDir, clock }), {
        renderReportsInWorker: false,
        sync: { client: { sleep: async () => {}, backoffBaseMs: 1, maxRetries: 1 } },
      });
    let app = open();
    cleanups.push(
      () => server.close(),
      () => app.stop(),
    );
    const workspace = await createWorkspace(app.core.sql, { name: 'Agency', plan: 'agency' });
    await createUser(app.core.sql, { workspaceId: workspace.id, email: 'owner@agency.test', role: 'owner' });
    const ctx = await app.use.identity.contextForWorkspace(workspace.id);
    const hook = await webhookReceiver(cleanups);
    const smtp = await smtpReceiver(cleanups);
    await app.use.alerts.setSmtp(ctx, {
      host: '127.0.0.1',
      port: smtp.port,
      security: 'none',
      from: 'a@agency.test',
    });
    const webhook = await app.use.alerts.add(ctx, {
      kind: 'webhook',
      target: hook.url,
      minRisk: 'LOW',
      types: ['issue.opened', 'issue.worsened', 'issue.resolved', 'sync.failed'],
    });
    await app.use.alerts.add(ctx, {
      kind: 'email',
      target: 'analyst@agency.test',
      minRisk: 'LOW',
      types: ['issue.opened'],
    });
    const account = await app.sync.connectAccount({
      workspaceId: workspace.id,
      platformAccountId: FAKE_ACCOUNT,
      baseUrl: server.url,
      apiVersion: 'v25.0',
      token: 'tok',
    });
    const issueEvents: CoreEventMap['issue.changed'][] = [];
    app.core.events.on('issue.changed', (e) => issueEvents.push(e));
    app.watcher.listen();
    const tick = async () => {
      const report = await app.watcher.tick();
      for (const { accountId } of report.started) await app.sync.current(accountId);
      await app.watcher.whenIdle();
      await app.diagnostics.whenIdle();
      await app.watcher.tick(); // the alerts the diagnosis raised are due now
      await app.alerts.whenIdle();
      return report;
    };
    const opened = (from: number) =>
      issueEvents.slice(from).filter((e) => e.change === 'opened' || e.change === 'reopened');

    await app.sync.syncAccount(account.id);
    await app.watcher.whenIdle();
    await app.diagnostics.whenIdle();
    await tick();
    // Whatever the first diagnosis found was announced once each.
    expect(hook.calls.filter((c) => c.json.type === 'issue.opened')).toHaveLength(opened(0).length);
    const base = { events: issueEvents.length, calls: hook.calls.length, mails: smtp.mails.length };

    // A scheduled sync that changes nothing: no call, no e-mail.
    clock.set((await scheduleOf(app.core.sql, account.id))!.next_incremental_at);
    expect((await tick()).started).toHaveLength(1);
    expect(issueEvents.length).toBe(base.events);
    expect(hook.calls.length).toBe(base.calls);

    // Campaign 102's conversions collapse: the next scheduled sync alerts, once per new issue.
    state.conversionCut = { campaignId: '102', from: '2026-03-06', share: 0.4 };
    clock.advance(61);
    await tick();
    const fresh = opened(base.events);
    expect(fresh.length).toBeGreaterThan(0);
    const all = hook.calls.slice(base.calls);
    // A campaign that no longer beats its goal comfortably may also see an open issue worsen: one
    // issue.worsened call per worsened issue, beside one issue.opened per new issue.
    const worsened = issueEvents.slice(base.events).filter((e) => e.change === 'worsened');
    expect(all.filter((c) => c.json.type === 'issue.worsened')).toHaveLength(worsened.length);
    const calls = all.filter((c) => c.json.type === 'issue.opened');
    expect(calls).toHaveLength(fresh.length);
    expect(calls.map((c) => (c.json.issue as { id: string }).id).sort()).toEqual(
      fresh.map((e) => e.issueId).sort(),
    );
    expect(calls.every((c) => validSignature(webhook.secret!, c))).toBe(true);
    expect(calls[0]!.json).toMatchObject({
      account: { id: account.id },
      campaign: { name: expect.any(String) },
    });
    expect(smtp.mails.length - base.mails).toBe(fresh.length);

    // The same problem at the next sync: nothing more.
    const seen = hook.calls.length;
    clock.advance(61);
    await tick();
    expect(hook.calls.length).toBe(seen);

    // Fixed: a resolved alert per issue that went away.
    state.conversionCut = null;
    clock.advance(61);
    await tick();
    const resolvedEvents = issueEvents.filter((e) => e.change === 'resolved');
    expect(resolvedEvents.length).toBeGreaterThan(0);
    const resolvedCalls = hook.calls.slice(seen).filter((c) => c.json.type === 'issue.resolved');
    expect(resolvedCalls.map((c) => (c.json.issue as { id: string }).id).sort()).toEqual(
      resolvedEvents.map((e) => e.issueId).sort(),
    );
    expect(smtp.mails.length - base.mails).toBe(fresh.length); // the e-mail takes new issues only

    // A scheduled sync fails while the receiver is down: queued, and retried after a restart.
    hook.state.status = 503;
    state.failInsightsAfter = 0;
    clock.advance(61);
    await tick();
    expect(hook.calls.at(-1)!.json.type).toBe('sync.failed');
    const failedCalls = hook.calls.length;
    await app.stop();
    app = open();
    hook.state.status = 200;
    clock.advance(2);
    await app.watcher.tick();
    await app.alerts.whenIdle();
    expect(hook.calls.length).toBe(failedCalls + 1);
    expect(hook.calls.at(-1)!.json.type).toBe('sync.failed');
    expect((await deliveriesOf(app.core.sql, webhook.id)).every((d) => d.status === 'delivered')).toBe(true);
  });
});
