// The team server's database URL: the TCP form and libpq's Unix-socket form are taken (a database on
// the same host is often reached through its socket), anything else is refused without echoing the
// URL, and the ready line names the database without its password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../../../test-support/postgres';
import { connectPg, describeDatabase } from './connect';

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres({ socket: true });
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe('the database URL', () => {
  it('reaches the database through its Unix socket as through TCP', async () => {
    const tcp = await server.createDatabase();
    const database = new URL(tcp).pathname.slice(1);
    const socket = server.socketUrl(database);
    expect(socket).toMatch(/^postgres:\/\/adlens:[^@]+@\/adlens_\w+\?host=%2F/);
    for (const url of [tcp, socket]) {
      const pool = connectPg(url, { max: 1 });
      try {
        const { rows } = await pool.query<{ db: string; via: string | null }>(
          `SELECT current_database() AS db, inet_server_addr()::text AS via`,
        );
        expect(rows[0]?.db).toBe(database);
        // A socket connection has no server address.
        expect(rows[0]?.via === null).toBe(url === socket);
      } finally {
        await pool.end();
      }
    }
  });

  it('refuses what is not a postgres URL, without echoing it', () => {
    for (const url of [
      'nonsense s3cret',
      'postgres://user:s3cret@/database',
      'mysql://user:s3cret@host/db',
    ]) {
      let message = '';
      try {
        connectPg(url);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, url).toMatch(/database URL/);
      expect(message).not.toContain('s3cret');
    }
  });

  it('names the database without its password, socket or host', () => {
    expect(describeDatabase('postgres://team:s3cret@db.internal:5432/adlens')).toBe(
      'postgres://team@db.internal:5432/adlens',
    );
    expect(describeDatabase('postgres://team:s3cret@/adlens?host=/var/run/postgresql')).toBe(
      'postgres://team@[socket /var/run/postgresql]/adlens',
    );
    expect(describeDatabase('postgresql://team:s3cret@%2Ftmp:5433/adlens')).toBe(
      'postgres://team@[socket /tmp]:5433/adlens',
    );
    expect(describeDatabase('not a url')).toBe('postgres (unreadable URL)');
  });
});
