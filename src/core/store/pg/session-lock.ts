// Work that several team server processes may start at once but only one may do (provisioning an
// empty database): held on one connection with a session advisory lock, so the others wait for it
// and then find the work done. Not a transaction: the work may call the network (the demo platform)
// and commit as it goes, and a process that dies releases the lock with its connection.
import type { PgPool } from './connect';

export async function withSessionLock<T>(pool: PgPool, key: string, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A connection cut while held (the server restarting) must not crash the process: the work's next
  // query reports it, and the lock is gone with the connection.
  const ignore = () => {};
  client.on('error', ignore);
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
    try {
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
    }
  } finally {
    client.off('error', ignore);
    client.release();
  }
}
