// Two CoreEvents, each bridged through its own pool to one database, stand for two serve processes.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../test-support/postgres';
import { CORE_EVENT_NAMES, CoreEvents, type CoreEventMap, type CoreEventName } from './events';
import { PgEventBridge } from './events-pg';
import { connectPg, type PgPool } from './store/pg/connect';
import { migratePg } from './store/pg/migrate';

let server: TestPostgres;
let cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => {
  server = await startTestPostgres();
});
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});
afterAll(async () => {
  await server?.stop();
});

interface Process {
  events: CoreEvents;
  bridge: PgEventBridge;
  pool: PgPool;
  statuses: string[];
  /** Two identity versions read one after the other, each time LISTEN was lost. */
  deafVersions: [string, string][];
  /** Every event this process's CoreEvents delivered, in order. */
  heard: { name: CoreEventName; payload: unknown }[];
}

async function processOn(url: string, name: string): Promise<Process> {
  const pool = connectPg(`${url}?application_name=${name}`);
  await migratePg(pool);
  const events = new CoreEvents();
  const heard: Process['heard'] = [];
  for (const event of CORE_EVENT_NAMES) events.on(event, (payload) => heard.push({ name: event, payload }));
  const statuses: string[] = [];
  const deafVersions: [string, string][] = [];
  const bridge: PgEventBridge = await PgEventBridge.start(events, pool, {
    onStatus: (status) => {
      statuses.push(status);
      if (status === 'lost') deafVersions.push([bridge.identityVersion(), bridge.identityVersion()]);
    },
    retry: { first: 20, max: 200 },
  });
  cleanups.push(async () => {
    await bridge.stop();
    await pool.end();
  });
  return { events, bridge, pool, statuses, deafVersions, heard };
}

async function twoProcesses(): Promise<[Process, Process, string]> {
  const url = await server.createDatabase();
  return [await processOn(url, 'process_a'), await processOn(url, 'process_b'), url];
}

const revoked: CoreEventMap['access.revoked'] = { workspaceId: 'w1', userId: null, keyIds: ['key-1'] };
const report: CoreEventMap['report.changed'] = { workspaceId: 'w1', reportId: 'r1', status: 'ready' };

describe('PgEventBridge', () => {
  it('re-emits every event on the other process, in order, and never echoes one to its emitter', async () => {
    const [a, b] = await twoProcesses();
    const samples = CORE_EVENT_NAMES.map((name, i) => ({ name, payload: { ...report, reportId: `r${i}` } }));
    for (const { name, payload } of samples) a.events.emit(name, payload as CoreEventMap[CoreEventName]);
    // Local emit is synchronous, as before.
    expect(a.heard).toEqual(samples);
    await vi.waitFor(() => expect(b.heard).toHaveLength(samples.length));
    expect(b.heard).toEqual(samples);
    expect(b.heard.map((e) => e.name)).toContain('access.revoked');

    // b's answer is notified after a's events: once a hears it, a's own would have come back already.
    b.events.emit('access.revoked', revoked);
    await vi.waitFor(() => expect(a.heard).toHaveLength(samples.length + 1));
    expect(a.heard.at(-1)).toEqual({ name: 'access.revoked', payload: revoked });
    expect(b.heard).toHaveLength(samples.length + 1);
  });

  it('carries an event too large for NOTIFY through a stored row, in its place in the order', async () => {
    const [a, b] = await twoProcesses();
    const alert: CoreEventMap['alert.raised'] = {
      workspaceId: 'w1',
      accountId: null,
      type: 'digest',
      title: 'Weekly digest',
      body: 'é€'.repeat(4_000), // 20,000 bytes of UTF-8
      issueId: null,
    };
    a.events.emit('report.changed', report);
    a.events.emit('alert.raised', alert);
    a.events.emit('access.revoked', revoked);
    await vi.waitFor(() => expect(b.heard).toHaveLength(3));
    expect(b.heard).toEqual([
      { name: 'report.changed', payload: report },
      { name: 'alert.raised', payload: alert },
      { name: 'access.revoked', payload: revoked },
    ]);
    const { rows } = await a.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM team_event_payloads');
    expect(rows[0]?.n).toBe(1);
  });

  it('listens again after losing its connection', async () => {
    const [a, b] = await twoProcesses();
    await a.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = 'process_b' AND query LIKE 'LISTEN%'`,
    );
    await vi.waitFor(() => expect(b.statuses).toEqual(['listening', 'lost', 'listening']));
    a.events.emit('report.changed', report);
    await vi.waitFor(() => expect(b.heard).toEqual([{ name: 'report.changed', payload: report }]));
  });

  it("moves every process's identity version when a key or plan changes, not when a key is used", async () => {
    const [a, b] = await twoProcesses();
    await a.pool.query(
      `INSERT INTO workspaces (id, name, plan, created_at) VALUES ('w1', 'W', 'agency', '2026-01-01');
       INSERT INTO api_keys (id, workspace_id, mode, key_hash, hint, created_at)
       VALUES ('key-1', 'w1', 'live', 'hash-1', 'abcd', '2026-01-01')`,
    );
    const steady = async (p: Process) => {
      // Settled: two reads a moment apart agree (no notification still on its way).
      let before = p.bridge.identityVersion();
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const now = p.bridge.identityVersion();
        if (now === before) return now;
        before = now;
      }
    };
    const changes = [
      `UPDATE api_keys SET revoked_at = '2026-02-01' WHERE id = 'key-1'`,
      `UPDATE api_keys SET limit_overrides = '{"reads":5}' WHERE id = 'key-1'`,
      `UPDATE workspaces SET plan = 'pro' WHERE id = 'w1'`,
      `DELETE FROM api_keys WHERE id = 'key-1'`,
    ];
    let seenByB = await steady(b);
    for (const change of changes) {
      const seenByA = await steady(a);
      await a.pool.query(change);
      // Both the writer and the other process see it, once the commit's notification arrives.
      await vi.waitFor(() => expect(a.bridge.identityVersion()).not.toBe(seenByA));
      await vi.waitFor(() => expect(b.bridge.identityVersion()).not.toBe(seenByB));
      seenByB = await steady(b);
    }
    await a.pool.query(
      `INSERT INTO api_keys (id, workspace_id, mode, key_hash, hint, created_at)
       VALUES ('key-2', 'w1', 'live', 'hash-2', 'abcd', '2026-01-01')`,
    );
    seenByB = await steady(b);
    await a.pool.query(`UPDATE api_keys SET last_used_at = '2026-02-02' WHERE id = 'key-2'`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(b.bridge.identityVersion()).toBe(seenByB);
  });

  it('reports a new identity version on every call while its LISTEN connection is lost', async () => {
    const [a, b] = await twoProcesses();
    const before = b.bridge.identityVersion();
    await a.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = 'process_b' AND query LIKE 'LISTEN%'`,
    );
    await vi.waitFor(() => expect(b.deafVersions).toHaveLength(1));
    const [first, second] = b.deafVersions[0] as [string, string];
    expect(first).not.toBe(second);
    await vi.waitFor(() => expect(b.statuses).toEqual(['listening', 'lost', 'listening']));
    // Listening again: anything may have changed meanwhile, so the version is not the old one.
    expect(b.bridge.identityVersion()).not.toBe(before);
    expect(b.bridge.identityVersion()).toBe(b.bridge.identityVersion());
  });

  it('stops: forwards and hears nothing more, and gives back its LISTEN client', async () => {
    const [a, b, url] = await twoProcesses();
    const listening = async () => {
      const { rows } = await a.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND query LIKE 'LISTEN%'`,
      );
      return rows[0]?.n;
    };
    expect(await listening()).toBe(2);
    await b.bridge.stop();
    expect(b.pool.totalCount).toBe(b.pool.idleCount);
    await vi.waitFor(async () => expect(await listening()).toBe(1));
    a.events.emit('report.changed', report);
    b.events.emit('access.revoked', revoked);
    // b is deaf now: a third process hearing a's later event proves b's silence is not a slow delivery.
    const c = await processOn(url, 'process_c');
    a.events.emit('diagnostic.changed', {
      workspaceId: 'w1',
      diagnosticId: 'd1',
      campaignId: null,
      status: 'done',
    });
    await vi.waitFor(() => expect(c.heard.map((e) => e.name)).toEqual(['diagnostic.changed']));
    expect(b.heard.map((e) => e.name)).toEqual(['access.revoked']);
    expect(a.heard.map((e) => e.name)).toEqual(['report.changed', 'diagnostic.changed']);
  });
});
