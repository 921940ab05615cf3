// One of several processes does the work at a time; the others wait for it; a process that dies
// (its connection gone) releases the lock.
import { describe, expect, it } from 'vitest';
import { postgresPerFile } from '../../../test-support/postgres-per-file';
import { connectPg } from './connect';
import { withSessionLock } from './session-lock';

const server = postgresPerFile();

describe('withSessionLock', () => {
  it('runs one holder at a time across pools, and frees the lock of a connection that is gone', async () => {
    const url = await server.createDatabase();
    const pools = [connectPg(url), connectPg(url), connectPg(url)];
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      pools.map((pool, n) =>
        withSessionLock(pool, 'adlens:provision', async () => {
          inside += 1;
          most = Math.max(most, inside);
          await new Promise((resolve) => setTimeout(resolve, 50));
          order.push(n);
          inside -= 1;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(order.sort()).toEqual([0, 1, 2]);
    // A holder whose process dies mid-work: its connection is cut and the next one goes ahead.
    const held = withSessionLock(pools[0]!, 'adlens:provision', () => new Promise<never>(() => {}));
    void held.catch(() => {});
    const holder = async () =>
      (
        await pools[1]!.query<{ pid: number }>(
          `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND database =
             (SELECT oid FROM pg_database WHERE datname = current_database())`,
        )
      ).rows[0]?.pid;
    while (!(await holder())) await new Promise((resolve) => setTimeout(resolve, 20));
    await pools[1]!.query('SELECT pg_terminate_backend($1)', [await holder()]);
    await expect(withSessionLock(pools[1]!, 'adlens:provision', async () => 'next')).resolves.toBe('next');
    await Promise.all(pools.slice(1).map((pool) => pool.end()));
    // The first pool's client is stuck in its never-ending work: the test's server stop ends it.
  }, 60_000);
});
