import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, silentLogger, type Core, type Logger } from '../core';
import { createApp } from '../app';
import { AppError } from '../errors';
import { createUser } from '../identity/users';
import { createWorkspace } from '../identity/workspaces';
import { HANDLER_NAMES } from '../../shared/ipc/names';
import { argSchemas } from '../../shared/ipc/schemas';
import type { HandlerApp, HandlerContext } from './context';
import { createDispatcher, type HandlerImpls } from './dispatch';
import { createHandlerDispatch, createHandlers } from './index';

/** The real App over the test's store (its services start no work until asked). */
function appFor(): HandlerApp {
  return createApp(core, {
    renderReportsInWorker: false,
    host: { apiBaseUrl: () => 'http://127.0.0.1:4477' },
  });
}

let dir: string;
let core: Core;
let ctx: HandlerContext;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'adlens-handlers-'));
  core = createCore({ dataDir: dir });
  const ws = await createWorkspace(core.sql, { name: 'Acme', plan: 'agency' });
  const owner = await createUser(core.sql, { workspaceId: ws.id, email: 'owner@acme.test', role: 'owner' });
  ctx = await appFor().use.identity.contextForUser(owner.id);
});

afterEach(async () => {
  core.close();
  rmSync(dir, { recursive: true, force: true });
});

function dispatch() {
  const app = appFor();
  return createHandlerDispatch({
    app,
    host: { kind: 'desktop' },
  });
}

describe('handler map', () => {
  it('has one argument schema and one implementation per name', async () => {
    const app = appFor();
    const impls = createHandlers({
      app,
      host: { kind: 'web' },
    });
    expect(Object.keys(argSchemas).sort()).toEqual([...HANDLER_NAMES].sort());
    expect(Object.keys(impls).sort()).toEqual([...HANDLER_NAMES].sort());
  });
});

describe('dispatcher validation', () => {
  it('refuses an unknown handler name as a value', async () => {
    const result = await dispatch()(ctx, 'accounts.delete', {});
    expect(result).toEqual({
      ok: false,
      error: { type: 'invalid_request', message: 'no handler named accounts.delete' },
    });
  });

  it.each([
    ['accounts.sync', { accountId: 'act_123' }, 'accountId'],
    ['accounts.sync', {}, 'accountId'],
    ['campaigns.get', { campaignId: 'camp_AAAAAAAAAAAAAAAA', extra: 1 }, 'extra'],
    ['campaigns.list', { range: { from: '2026-01-10' } }, 'both from and to'],
    ['campaigns.list', { range: { from: '2026-01-10', to: '2026-01-01' } }, 'after'],
    ['diagnostics.list', { riskLevel: 'SEVERE' }, 'riskLevel'],
    ['diagnostics.list', { pageSize: 500 }, 'pageSize'],
    [
      'diagnostics.feedback',
      { diagnosticId: 'diag_AAAAAAAAAAAAAAAA', recommendationId: 'rec_1', feedback: 'liked' },
      'feedback',
    ],
    ['keys.create', { mode: 'prod' }, 'mode'],
    ['settings.update', { apiPort: 80 }, 'apiPort'],
    ['settings.update', { whiteLabelDefaults: { companyName: 'A', primaryColor: 'red' } }, 'primaryColor'],
    ['accounts.connectToken', { platformAccountId: 'act_1', token: 'short' }, 'token'],
    ['accounts.reconnect', { accountId: 'act_AAAAAAAAAAAAAAAA', token: 'short' }, 'token'],
    ['accounts.disconnect', {}, 'accountId'],
    ['campaigns.setTargetCpa', { campaignId: 'camp_AAAAAAAAAAAAAAAA', targetCpa: -1 }, 'targetCpa'],
    ['reports.schedule', { accountId: 'act_AAAAAAAAAAAAAAAA', title: 'W', cadence: 'daily' }, 'cadence'],
    ['reports.unschedule', { id: 'rep_AAAAAAAAAAAAAAAA' }, 'id'],
  ])('%s refuses %j before any handler runs', async (name, args, mention) => {
    const result = await dispatch()(ctx, name, args);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.type).toBe('invalid_request');
      expect(result.error.message).toContain(mention);
    }
  });

  it('refuses more than 20 campaigns in a report', async () => {
    const campaignIds = Array.from({ length: 21 }, (_, i) => `camp_${String(i).padStart(16, 'A')}`);
    const result = await dispatch()(ctx, 'reports.create', {
      accountId: 'act_AAAAAAAAAAAAAAAA',
      title: 'Weekly',
      dateFrom: '2026-01-01',
      dateTo: '2026-01-07',
      campaignIds,
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain('at most 20 campaigns');
  });

  it('passes validated arguments with defaults filled', async () => {
    let seen: unknown;
    const impls = createHandlers({
      app: appFor(),
      host: { kind: 'web' },
    });
    const probe: HandlerImpls = {
      ...impls,
      'diagnostics.list': (_ctx, args) => {
        seen = args;
        return { items: [], total: 0, page: args.page, pageSize: args.pageSize };
      },
    };
    const result = await createDispatcher(probe, silentLogger)(ctx, 'diagnostics.list', undefined);
    expect(result).toEqual({ ok: true, value: { items: [], total: 0, page: 1, pageSize: 25 } });
    expect(seen).toEqual({ page: 1, pageSize: 25 });
  });

  it('turns expected errors into values and hides internal ones behind a reference', async () => {
    const logged: string[] = [];
    const logger: Logger = {
      ...silentLogger,
      error: (message, fields) => logged.push(`${message} ${JSON.stringify(fields)}`),
    };
    const impls = createHandlers({
      app: appFor(),
      host: { kind: 'web' },
    });
    const failing = createDispatcher(
      {
        ...impls,
        'profile.get': () => {
          throw new AppError('not_found', 'no profile');
        },
        'settings.get': () => {
          throw new Error('disk on fire');
        },
      },
      logger,
    );
    expect(await failing(ctx, 'profile.get', {})).toEqual({
      ok: false,
      error: { type: 'not_found', message: 'no profile' },
    });
    const internal = await failing(ctx, 'settings.get', {});
    expect(internal.ok).toBe(false);
    if (!internal.ok) {
      expect(internal.error.type).toBe('api_error');
      expect(internal.error.message).not.toContain('disk on fire');
      const reference = /reference (req_\w+)/.exec(internal.error.message)?.[1];
      expect(reference).toBeDefined();
      expect(logged.join('\n')).toContain(reference as string);
      expect(logged.join('\n')).toContain('disk on fire');
    }
  });
});

describe('store-only handlers', () => {
  it('creates a key shown once, lists it by hint, and revokes it', async () => {
    const d = dispatch();
    const created = await d(ctx, 'keys.create', { name: 'CI', mode: 'test' });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    const value = created.value as { key: string; apiKey: { id: string; hint: string } };
    expect(value.key).toMatch(/^service_test_[0-9A-Za-z]{32}$/);
    const listed = await d(ctx, 'keys.list', {});
    expect(JSON.stringify(listed)).not.toContain(value.key);
    expect(JSON.stringify(listed)).toContain(value.apiKey.hint);
    const revoked = await d(ctx, 'keys.revoke', { id: value.apiKey.id });
    expect(revoked.ok && (revoked.value as { revokedAt: string | null }).revokedAt).toBeTruthy();
  });

  it('keeps the Andromeda profile and settings per user and workspace', async () => {
    const d = dispatch();
    expect(await d(ctx, 'profile.get', {})).toMatchObject({
      ok: true,
      value: { riskAppetite: 'MEDIUM', focusMetric: 'CPA' },
    });
    await d(ctx, 'profile.update', { riskAppetite: 'HIGH', focusMetric: 'ROAS' });
    expect(await d(ctx, 'profile.get', {})).toMatchObject({
      ok: true,
      value: { riskAppetite: 'HIGH', focusMetric: 'ROAS' },
    });
    const updated = await d(ctx, 'settings.update', {
      apiPort: 5000,
      whiteLabelDefaults: { companyName: 'Acme Media' },
    });
    expect(updated).toMatchObject({
      ok: true,
      value: {
        api: { port: 5000, baseUrl: 'http://127.0.0.1:4477' },
        whiteLabelDefaults: { companyName: 'Acme Media' },
      },
    });
  });

  it('refuses API keys on plans without API access', async () => {
    const ws = await createWorkspace(core.sql, { name: 'Small', plan: 'starter' });
    const user = await createUser(core.sql, { workspaceId: ws.id, email: 'a@small.test', role: 'owner' });
    const result = await dispatch()(await appFor().use.identity.contextForUser(user.id), 'keys.create', {});
    expect(result).toMatchObject({ ok: false, error: { type: 'plan_insufficient' } });
  });
});
