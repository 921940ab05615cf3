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
  const bridge = await PgEventBridge.start(events, pool, {
    onStatus: (status) => statuses.push(status),
    retry: { first: 20, max: 200 },
  });
  cleanups.push(async () => {
    await bridge.stop();
    await pool.end();
  });
  return { events, bridge, pool, statuses, heard };
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
