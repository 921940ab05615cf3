// Work one team server process does for all of them (the watcher's schedules, digests and outboxes):
// the process holding a session advisory lock leads. The others try again every `retryMs`; a leader
// that dies or loses its connection frees the lock with it, so another process leads within one retry.
import type { PoolClient } from 'pg';
import type { Logger } from '../../core';
import type { PgPool } from './connect';

export interface LeadershipOptions {
  /** Called when this process becomes the leader. */
  lead(): void;
  /** Called when it no longer is (its connection was lost); stop the leader's work. */
  follow(): void;
  retryMs?: number;
  logger: Logger;
}

export interface Leadership {
  readonly leading: boolean;
  /** Gives leadership up (at shutdown): the next process's try takes it. */
  stop(): Promise<void>;
}

export function seekLeadership(pool: PgPool, key: string, options: LeadershipOptions): Leadership {
  let client: PoolClient | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let attempt: Promise<void> = Promise.resolve();

  const lose = (error: unknown): void => {
    if (!client) return;
    const lost = client;
    client = null;
    lost.release(error instanceof Error ? error : true);
    options.logger.warn('leadership lost with its database connection', { error: String(error) });
    options.follow();
    schedule();
  };

  const tryOnce = async (): Promise<void> => {
    if (stopped || client) return;
    let candidate: PoolClient | null = null;
    try {
      candidate = await pool.connect();
      const { rows } = await candidate.query<{ won: boolean }>(
        'SELECT pg_try_advisory_lock(hashtext($1)) AS won',
        [key],
      );
      if (!rows[0]?.won || stopped) {
        if (rows[0]?.won) await candidate.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
        candidate.release();
        schedule();
        return;
      }
      client = candidate;
      client.on('error', lose);
      options.lead();
    } catch (error) {
      candidate?.release(true);
      options.logger.warn('leadership: the database could not be asked', { error: String(error) });
      schedule();
    }
  };

  function schedule(): void {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      attempt = tryOnce();
    }, options.retryMs ?? 15_000);
    timer.unref();
  }

  attempt = tryOnce();
  return {
    get leading() {
      return client !== null;
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await attempt;
      const held = client;
      client = null;
      if (!held) return;
      held.off('error', lose);
      try {
        await held.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
        held.release();
      } catch {
        held.release(true);
      }
    },
  };
}
