// Alert destinations through the handler map (what Settings calls), against a webhook receiver on
// loopback: added with the secret once, listed without it, tested signed, removed; members may not.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createUser } from '../identity/users';
import { fixedClock } from '../clock';
import type { HandlerResult } from '../../shared/ipc';
import { seededHandlerWorld } from '../../test-support/handler-world';
import { smtpReceiver, validSignature, webhookReceiver } from '../../test-support/alert-receivers';

const world = await seededHandlerWorld('adlens-alert-handlers-', {
  campaigns: 1,
  clock: fixedClock('2026-03-15T10:00:00Z'),
});
afterAll(() => world.close());
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('alerts handlers', () => {
  it('adds, lists, tests and removes a webhook; refuses bad input and members', async () => {
    const hook = await webhookReceiver(cleanups);
    const created = await world.ok<HandlerResult<'alerts.add'>>('alerts.add', {
      kind: 'webhook',
      target: hook.url,
      minRisk: 'CRITICAL',
    });
    expect(created).toMatchObject({ kind: 'webhook', minRisk: 'CRITICAL', lastDelivery: null });
    expect(created.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    const listed = await world.ok<HandlerResult<'alerts.list'>>('alerts.list', {});
    expect(listed.map((d) => d.id)).toEqual([created.id]);
    expect(JSON.stringify(listed)).not.toContain(created.secret!);

    const tested = await world.ok<HandlerResult<'alerts.test'>>('alerts.test', { id: created.id });
    expect(tested).toMatchObject({ delivered: true, httpStatus: 200 });
    expect(validSignature(created.secret!, hook.calls[0]!)).toBe(true);
    expect(hook.calls[0]!.json).toMatchObject({ type: 'test', link: 'http://127.0.0.1:4477/#/accounts' });

    const bad = await world.call('alerts.add', { kind: 'email', target: 'not-an-address' });
    expect(bad).toMatchObject({ ok: false, error: { type: 'invalid_request' } });
    expect(await world.call('alerts.remove', { id: 'dest_0000000000000000' })).toMatchObject({ ok: false });

    const member = await createUser(world.app.core.sql, {
      workspaceId: world.ctx.workspaceId,
      email: 'member@agency.test',
      role: 'member',
    });
    const memberCtx = await world.app.use.identity.contextForUser(member.id);
    expect(
      await world.dispatch(memberCtx, 'alerts.add', { kind: 'webhook', target: hook.url }),
    ).toMatchObject({
      ok: false,
      error: { type: 'permission_error' },
    });

    await world.ok('alerts.remove', { id: created.id });
    expect(await world.ok('alerts.list', {})).toEqual([]);
  });

  it('sets the SMTP server (password sealed, never shown back, kept when not resent), sends a test e-mail, and sets quiet hours and one’s own digest', async () => {
    const smtp = await smtpReceiver(cleanups);
    expect(await world.ok('alerts.smtp', {})).toBeNull();
    expect(await world.call('alerts.testSmtp', {})).toMatchObject({
      ok: false,
      error: { type: 'invalid_request' },
    });
    const settings = {
      host: '127.0.0.1',
      port: smtp.port,
      security: 'none',
      user: 'agency',
      from: 'reports@agency.test',
    };
    const set = await world.ok<HandlerResult<'alerts.setSmtp'>>('alerts.setSmtp', {
      ...settings,
      password: 'hunter22',
    });
    expect(set).toEqual({ ...settings, passwordSet: true });
    expect(JSON.stringify(set)).not.toContain('hunter22');
    // The form resends everything but the password: the sealed one stays.
    expect(await world.ok('alerts.setSmtp', { ...settings, from: 'alerts@agency.test' })).toMatchObject({
      from: 'alerts@agency.test',
      passwordSet: true,
    });
    const { user: _user, ...anonymous } = settings;
    expect(await world.ok('alerts.setSmtp', anonymous)).toMatchObject({ user: null, passwordSet: false });

    const tested = await world.ok<HandlerResult<'alerts.testSmtp'>>('alerts.testSmtp', {
      to: 'ana@agency.test',
    });
    expect(tested).toEqual({ delivered: true, to: 'ana@agency.test', error: null });
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]?.to).toEqual(['ana@agency.test']);
    expect(smtp.mails[0]?.data).toContain('AdLens test e-mail');

    // The same rules as the CLI: both ends of quiet hours, or neither.
    expect(await world.call('alerts.setPreferences', { quietFrom: 22 })).toMatchObject({
      ok: false,
      error: { type: 'invalid_request' },
    });
    expect(
      await world.ok('alerts.setPreferences', { quietFrom: 22, quietTo: 7, timezone: 'Asia/Tokyo' }),
    ).toMatchObject({ quietFrom: 22, quietTo: 7, timezone: 'Asia/Tokyo' });
    expect(await world.ok('alerts.preferences', {})).toMatchObject({ quietFrom: 22, quietTo: 7 });

    expect(await world.ok('alerts.digest', {})).toMatchObject({ hour: null });
    expect(await world.ok('alerts.setDigest', { hour: 8, timezone: 'Europe/Berlin' })).toMatchObject({
      hour: 8,
      timezone: 'Europe/Berlin',
    });
    expect(await world.ok('alerts.digest', {})).toMatchObject({ hour: 8, timezone: 'Europe/Berlin' });

    const member = await createUser(world.app.core.sql, {
      workspaceId: world.ctx.workspaceId,
      email: 'member2@agency.test',
      role: 'member',
    });
    const memberCtx = await world.app.use.identity.contextForUser(member.id);
    expect(await world.dispatch(memberCtx, 'alerts.setSmtp', settings)).toMatchObject({
      ok: false,
      error: { type: 'permission_error' },
    });
  });
});
