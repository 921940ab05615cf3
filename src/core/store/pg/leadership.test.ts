// One team server process leads (watches the accounts) at a time; when the leader's connection is
// gone (its process died), another takes over at its next try; a leader that stops hands it on.
import { describe, expect, it } from 'vitest';
import { postgresPerFile } from '../../../test-support/postgres-per-file';
import { silentLogger } from '../../core';
import { connectPg, type PgPool } from './connect';
import { seekLeadership, type Leadership } from './leadership';

const server = postgresPerFile();

async function until(probe: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('seekLeadership', () => {
  it('elects one leader among processes, replaces one whose connection died, and hands on at stop', async () => {
    const url = await server.createDatabase();
    const pools: PgPool[] = [connectPg(url), connectPg(url), connectPg(url)];
    const leading = [0, 0, 0];
    const leaders: Leadership[] = pools.map((pool, n) =>
      seekLeadership(pool, 'adlens:watcher', {
        lead: () => (leading[n] = (leading[n] ?? 0) + 1),
        follow: () => (leading[n] = (leading[n] ?? 0) - 1),
        retryMs: 100,
        logger: silentLogger,
      }),
    );
    try {
      await until(() => leaders.some((l) => l.leading));
      // Several tries later there is still exactly one.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(leaders.filter((l) => l.leading)).toHaveLength(1);
      expect(leading.reduce((a, b) => a + b, 0)).toBe(1);
      const first = leaders.findIndex((l) => l.leading);

      // The leader's process dies: its connection is cut (as the server sees a killed process).
      const admin = connectPg(url, { max: 1 });
      try {
        await admin.query(
          `SELECT pg_terminate_backend(l.pid) FROM pg_locks l
            WHERE l.locktype = 'advisory' AND l.granted AND l.pid <> pg_backend_pid()`,
        );
      } finally {
        await admin.end();
      }
      await until(() => leaders.some((l, n) => n !== first && l.leading));
      expect(leaders[first]?.leading).toBe(false);
      expect(leading[first]).toBe(0); // it was told to stop its leader's work
      expect(leaders.filter((l) => l.leading)).toHaveLength(1);

      // The new leader stops (a graceful shutdown): one of the others leads next.
      const second = leaders.findIndex((l) => l.leading);
      await leaders[second]?.stop();
      await until(() => leaders.some((l, n) => n !== second && l.leading));
      expect(leaders.filter((l) => l.leading)).toHaveLength(1);
    } finally {
      for (const leader of leaders) await leader.stop();
      for (const pool of pools) await pool.end();
    }
  }, 60_000);
});
