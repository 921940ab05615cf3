// Alerts against real receivers on loopback: a webhook server (node:http) that checks the Stripe-like
// signature and can answer 500, an SMTP server (smtp-server) that receives the e-mails, a real store
// and an injected clock: retries with backoff, one delivery per issue state change, quiet hours that
// hold then release, mutes, and the morning digest once at the user's hour in their time zone.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../app';
import { createCore } from '../core';
import { createUser } from '../identity/users';
import { createWorkspace } from '../identity/workspaces';
import { reconcileIssues, type FoundIssue } from '../issues/lifecycle';
import { seedAccount, seedCampaign } from '../../test-support/api-fixtures';
import { deliveriesOf } from './store';
import { handClock, smtpReceiver, validSignature, webhookReceiver } from '../../test-support/alert-receivers';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function world(start = '2026-03-15T10:00:00Z') {
  const dataDir = mkdtempSync(join(tmpdir(), 'adlens-alerts-'));
  const clock = handClock(start);
  const app: App = createApp(createCore({ dataDir, clock }), { renderReportsInWorker: false });
  cleanups.push(() => app.stop());
  const workspace = await createWorkspace(app.core.sql, { name: 'Agency', plan: 'agency' });
  const owner = await createUser(app.core.sql, {
    workspaceId: workspace.id,
    email: 'owner@agency.test',
    role: 'owner',
  });
  const account = seedAccount(app.core.db, { workspaceId: workspace.id, mode: 'live' });
  const campaign = seedCampaign(app.core.db, { accountId: account.id, name: 'Alpha' });
  const ctx = await app.use.identity.contextForWorkspace(workspace.id);
  const found = (severity: FoundIssue['severity']): FoundIssue => ({
    campaignId: campaign,
    type: 'CPA_DEGRADATION',
    entity: { id: campaign, name: 'Alpha' },
    severity,
    title: 'Cost per result up 60%',
    description: 'the last 7 days against the 14 before',
    evidence: { cpaChange: 0.6 },
  });
  let n = 0;
  /** One diagnosis of the campaign finding these problems. */
  const diagnose = (...issues: FoundIssue[]) =>
    reconcileIssues(app.core, {
      workspaceId: workspace.id,
      accountId: account.id,
      diagnosticId: `diag_AlertsDiagnos${String(n++).padStart(3, '0')}`,
      judgedCampaignIds: [campaign],
      found: issues,
    });
  const settle = async () => {
    app.alerts.tick();
    await app.alerts.whenIdle();
  };
  return { app, clock, workspace, owner, account, campaign, ctx, found, diagnose, settle };
}

describe('webhooks', () => {
  it('delivers signed events once per issue state change, retries 500s with backoff, and sends nothing without a change', async () => {
    const w = await world();
    const hook = await webhookReceiver(cleanups);
    const created = await w.app.use.alerts.add(w.ctx, {
      kind: 'webhook',
      target: hook.url,
      minRisk: 'MEDIUM',
    });
    expect(created.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect((await w.app.use.alerts.list(w.ctx))[0]).not.toHaveProperty('secret');

    await w.diagnose(w.found('HIGH'));
    await w.settle();
    expect(hook.calls).toHaveLength(1);
    const [call] = hook.calls;
    expect(validSignature(created.secret!, call!)).toBe(true);
    expect(validSignature('whsec_wrong', call!)).toBe(false);
    expect(call!.json).toMatchObject({
      type: 'issue.opened',
      account: { id: w.account.id },
      campaign: { id: w.campaign, name: 'Alpha' },
      issue: { type: 'CPA_DEGRADATION', severity: 'HIGH', evidence: { cpaChange: 0.6 } },
      link: null,
    });

    // The same finding again: reconcileIssues reports no change, nothing is sent.
    expect(await w.diagnose(w.found('HIGH'))).toEqual([]);
    await w.settle();
    expect(hook.calls).toHaveLength(1);

    // Worse, while the receiver fails: retried after 1, then 2 minutes, delivered once it answers.
    hook.state.status = 500;
    await w.diagnose(w.found('CRITICAL'));
    await w.settle();
    expect(hook.calls).toHaveLength(2);
    await w.settle();
    expect(hook.calls).toHaveLength(2); // not due yet
    w.clock.advance(1);
    await w.settle();
    expect(hook.calls).toHaveLength(3);
    w.clock.advance(1);
    await w.settle();
    expect(hook.calls).toHaveLength(3); // the second retry waits two minutes
    hook.state.status = 204;
    w.clock.advance(1);
    await w.settle();
    expect(hook.calls).toHaveLength(4);
    w.clock.advance(60);
    await w.settle();
    expect(hook.calls).toHaveLength(4);
    expect(hook.calls.slice(1).map((c) => c.json.type)).toEqual([
      'issue.worsened',
      'issue.worsened',
      'issue.worsened',
    ]);
    // Retries carry the same event (its id), each signed anew.
    expect(new Set(hook.calls.slice(1).map((c) => c.json.id)).size).toBe(1);
    expect(hook.calls.every((c) => validSignature(created.secret!, c))).toBe(true);
    // Both were queued at the same instant (the hand clock): compared in type order.
    const rows = (await deliveriesOf(w.app.core.sql, created.id)).sort((a, b) =>
      a.type.localeCompare(b.type),
    );
    expect(rows.map((r) => [r.type, r.status, r.attempts])).toEqual([
      ['issue.opened', 'delivered', 1],
      ['issue.worsened', 'delivered', 3],
    ]);

    // Resolved: one more, and a LOW issue stays below the destination's MEDIUM.
    await w.diagnose();
    await w.diagnose({ ...w.found('LOW'), type: 'CTR_DECLINE' });
    await w.settle();
    expect(hook.calls.slice(4).map((c) => c.json.type)).toEqual(['issue.resolved']);

    const test = await w.app.use.alerts.test(w.ctx, created.id);
    expect(test).toMatchObject({ delivered: true, httpStatus: 204 });
    expect(hook.calls.at(-1)!.json.type).toBe('test');
    expect(validSignature(created.secret!, hook.calls.at(-1)!)).toBe(true);
  });

  it('gives up a day after the first attempt; a restart keeps the retries', async () => {
    const w = await world();
    const hook = await webhookReceiver(cleanups);
    hook.state.status = 500;
    const created = await w.app.use.alerts.add(w.ctx, { kind: 'webhook', target: hook.url, slack: true });
    await w.diagnose(w.found('CRITICAL'));
    await w.settle();
    expect(JSON.parse(hook.calls[0]!.body)).toEqual({
      text: expect.stringContaining('CRITICAL issue opened'),
    });
    for (let i = 0; i < 40; i++) {
      w.clock.advance(120);
      await w.settle();
    }
    const [row] = await deliveriesOf(w.app.core.sql, created.id);
    expect(row!.status).toBe('failed');
    expect(hook.calls.length).toBeGreaterThan(8);
    expect(hook.calls.length).toBeLessThan(30);
  });
});

describe('operational alerts', () => {
  it('a failed sync, a disabled account and a whole day with spend and no results, once each', async () => {
    const w = await world();
    const hook = await webhookReceiver(cleanups);
    await w.app.use.alerts.add(w.ctx, { kind: 'webhook', target: hook.url });
    const { db, events } = w.app.core;
    const insight = db.prepare(
      `INSERT INTO insights_campaign_daily (campaign_id, date, account_id, spend_micros, conversions) VALUES (?, ?, ?, ?, ?)`,
    );
    insight.run(w.campaign, '2026-03-13', w.account.id, 50_000_000, 4);
    insight.run(w.campaign, '2026-03-14', w.account.id, 40_000_000, 0);
    insight.run(w.campaign, '2026-03-15', w.account.id, 9_000_000, 0); // today: not over yet
    const completed = { workspaceId: w.workspace.id, accountId: w.account.id, kind: 'incremental' as const };
    events.emit('sync.completed', { ...completed, syncRunId: 'sync_1' });
    events.emit('sync.completed', { ...completed, syncRunId: 'sync_2' });
    events.emit('sync.failed', {
      workspaceId: w.workspace.id,
      accountId: w.account.id,
      syncRunId: 'sync_3',
      error: { type: 'platform_error', message: 'Graph said no' },
    });
    events.emit('sync.failed', {
      workspaceId: w.workspace.id,
      accountId: w.account.id,
      syncRunId: 'sync_4',
      error: { type: 'interrupted', message: 'the app closed' },
    });
    // Reactions read the store when they run (asynchronously, in event order): the account is
    // disabled once the first syncs' alerts are through, as a later sync would find it.
    await w.settle();
    db.prepare(`UPDATE ad_accounts SET status = 'disabled' WHERE id = ?`).run(w.account.id);
    events.emit('sync.completed', { ...completed, syncRunId: 'sync_5' });
    events.emit('sync.completed', { ...completed, syncRunId: 'sync_6' });
    await w.settle();
    expect(hook.calls.map((c) => c.json.type)).toEqual(['results.zero', 'sync.failed', 'account.disabled']);
    expect(hook.calls[0]!.json).toMatchObject({ detail: { date: '2026-03-14', spend: 40 } });
    expect(hook.calls[1]!.json.text).toContain('Graph said no');
  });

  it('an account near its spend cap (once per cap) and a day far off its budgets (once per day)', async () => {
    const w = await world();
    const hook = await webhookReceiver(cleanups);
    await w.app.use.alerts.add(w.ctx, { kind: 'webhook', target: hook.url });
    const { db, events } = w.app.core;
    // One active campaign with a 100/day budget (CBO); it spent 180 yesterday: 180% of budget.
    db.prepare(
      `UPDATE campaigns SET effective_status = 'ACTIVE', daily_budget_micros = 100000000 WHERE id = ?`,
    ).run(w.campaign);
    db.prepare(
      `INSERT INTO insights_campaign_daily (campaign_id, date, account_id, spend_micros, conversions) VALUES (?, ?, ?, ?, ?)`,
    ).run(w.campaign, '2026-03-14', w.account.id, 180_000_000, 9);
    db.prepare(
      `UPDATE ad_accounts SET spend_cap_micros = 1000000000, amount_spent_micros = 960000000 WHERE id = ?`,
    ).run(w.account.id);
    const completed = { workspaceId: w.workspace.id, accountId: w.account.id, kind: 'incremental' as const };
    events.emit('sync.completed', { ...completed, syncRunId: 'sync_1' });
    events.emit('sync.completed', { ...completed, syncRunId: 'sync_2' }); // the same facts: nothing new
    await w.settle();
    expect(hook.calls.map((c) => c.json.type).sort()).toEqual(['account.spend_cap', 'spend.pacing']);
    expect(hook.calls.find((c) => c.json.type === 'spend.pacing')!.json).toMatchObject({
      detail: { date: '2026-03-14', spend: 180, dailyBudget: 100 },
    });
    // The cap is raised, and reached again: news again. A pacing share of 1 tolerates 180%.
    db.prepare(
      `UPDATE ad_accounts SET spend_cap_micros = 2000000000, amount_spent_micros = 2000000000 WHERE id = ?`,
    ).run(w.account.id);
    await w.app.use.alerts.setPreferences(w.ctx, { pacingShare: 1 });
    w.clock.advance(24 * 60);
    db.prepare(
      `INSERT INTO insights_campaign_daily (campaign_id, date, account_id, spend_micros, conversions) VALUES (?, ?, ?, ?, ?)`,
    ).run(w.campaign, '2026-03-15', w.account.id, 180_000_000, 9);
    events.emit('sync.completed', { ...completed, syncRunId: 'sync_3' });
    await w.settle();
    expect(hook.calls.map((c) => c.json.type).sort()).toEqual([
      'account.spend_cap',
      'account.spend_cap',
      'spend.pacing',
    ]);
    expect(hook.calls.at(-1)!.json.title).toContain('Spend cap reached');
  });

  it('a token about to lapse: one alert a day per account that shares it', async () => {
    const w = await world();
    const hook = await webhookReceiver(cleanups);
    await w.app.use.alerts.add(w.ctx, { kind: 'webhook', target: hook.url });
    const expiring = {
      workspaceId: w.workspace.id,
      connectionId: 'conn_Expiring00000001',
      accountId: w.account.id,
      accountIds: [w.account.id],
      expiresAt: '2026-03-18T00:00:00.000Z',
      daysLeft: 3,
    };
    w.app.core.events.emit('connection.expiring', expiring);
    w.app.core.events.emit('connection.expiring', expiring); // announced twice the same day
    await w.settle();
    expect(hook.calls.map((c) => c.json.type)).toEqual(['token.expiring']);
    expect(hook.calls[0]!.json.text).toContain('lapses in 3 days');
    w.clock.advance(24 * 60);
    w.app.core.events.emit('connection.expiring', { ...expiring, daysLeft: 2 });
    await w.settle();
    expect(hook.calls.map((c) => c.json.type)).toEqual(['token.expiring', 'token.expiring']);
  });
});

describe('e-mail, quiet hours, mutes', () => {
  it('sends one e-mail per new issue through the SMTP server, holds deliveries in quiet hours and releases them', async () => {
    // 23:00 in Paris (UTC+1 in March before the 29th).
    const w = await world('2026-03-15T22:00:00Z');
    const smtp = await smtpReceiver(cleanups);
    const hook = await webhookReceiver(cleanups);
    await w.app.use.alerts.setSmtp(w.ctx, {
      host: '127.0.0.1',
      port: smtp.port,
      security: 'none',
      from: 'alerts@agency.test',
    });
    await w.app.use.alerts.add(w.ctx, { kind: 'email', target: 'analyst@agency.test', minRisk: 'LOW' });
    await w.app.use.alerts.add(w.ctx, { kind: 'webhook', target: hook.url, minRisk: 'LOW' });
    await w.app.use.alerts.setPreferences(w.ctx, { quietFrom: 22, quietTo: 7, timezone: 'Europe/Paris' });
    const raised: string[] = [];
    w.app.core.events.on('alert.raised', (e) => raised.push(e.type));

    await w.diagnose(w.found('HIGH'), { ...w.found('MEDIUM'), type: 'CTR_DECLINE', title: 'CTR down' });
    await w.settle();
    expect(raised).toEqual(['issue.opened', 'issue.opened']); // the event stream is never held
    expect(smtp.mails).toHaveLength(0);
    expect(hook.calls).toHaveLength(0);
    w.clock.set('2026-03-16T05:59:00Z'); // 06:59 in Paris
    await w.settle();
    expect(smtp.mails).toHaveLength(0);
    w.clock.set('2026-03-16T06:00:00Z'); // 07:00: released
    await w.settle();
    expect(hook.calls).toHaveLength(2);
    expect(smtp.mails).toHaveLength(2);
    expect(smtp.mails[0]!.to).toEqual(['analyst@agency.test']);
    expect(smtp.mails.map((m) => /Subject: (.*)/.exec(m.data)?.[1]).sort()).toEqual([
      '[AdLens] HIGH issue opened: Cost per result up 60%',
      '[AdLens] MEDIUM issue opened: CTR down',
    ]);

    // A muted account sends nothing at all.
    await w.app.use.alerts.setPreferences(w.ctx, { mutedAccountIds: [w.account.id] });
    await w.diagnose();
    await w.settle();
    expect(hook.calls).toHaveLength(2);
    expect(smtp.mails).toHaveLength(2);
  });
});

describe('morning digest', () => {
  it('is sent once at the chosen hour in the user time zone, says nothing changed on an empty day', async () => {
    // 06:30 in New York (UTC-4 after 8 March).
    const w = await world('2026-03-15T10:30:00Z');
    const hook = await webhookReceiver(cleanups);
    await w.app.use.alerts.add(w.ctx, { kind: 'webhook', target: hook.url, types: ['digest'] });
    await w.app.use.alerts.setDigest(w.ctx, { userId: w.owner.id, hour: 8, timezone: 'America/New_York' });
    await w.diagnose(w.found('HIGH'));
    await w.settle();
    expect(hook.calls).toHaveLength(0); // the destination takes digests only; not 08:00 yet
    w.clock.set('2026-03-15T12:00:00Z'); // 08:00 in New York
    await w.settle();
    expect(hook.calls).toHaveLength(1);
    expect(hook.calls[0]!.json).toMatchObject({
      type: 'digest',
      detail: { counts: { opened: 1, worsened: 0, resolved: 0, syncsFailed: 0 } },
    });
    expect(hook.calls[0]!.json.text).toContain('Cost per result up 60%');
    w.clock.advance(60);
    await w.settle();
    expect(hook.calls).toHaveLength(1); // once a day
    w.clock.set('2026-03-16T12:05:00Z');
    await w.settle();
    expect(hook.calls).toHaveLength(2);
    expect(hook.calls[1]!.json.text).toBe('Nothing changed since the last digest.');
  });
});
