// The core of a team server process (DESIGN §2, "Solo and team"): the same services over PostgreSQL.
// No data directory: the store is a pool on the database (migrated once, under an advisory lock, by
// whichever process starts first), secrets are sealed with the key of ADLENS_SECRET_KEY_FILE, report
// files are rows, events reach every process (LISTEN/NOTIFY), and jobs are claimed exactly once
// across processes (row leases).
import { AccountFigures } from './insights/account-figures';
import { systemClock, type Clock } from './clock';
import { silentLogger, type Core, type Logger } from './core';
import { AppError } from './errors';
import { CoreEvents } from './events';
import { PgEventBridge } from './events-pg';
import type { JobsFactory } from './jobs/jobs';
import { jobOwner } from './jobs/lease-runner';
import { HeldJobQueue } from './jobs/held-queue';
import { PgJobLeases } from './jobs/leases-pg';
import { TeamJobQueue } from './jobs/team-queue';
import { databaseReportFiles } from './reports/files';
import { SEALING_CHECK_SETTING, sealingCheckValue, sealsWith } from './sealing-check';
import { secretKeyFileCipher } from './secret-key-file';
import type { TokenCipher } from './secrets';
import { connectPg, pgFailure, type PgPool } from './store/pg/connect';
import { migratePg } from './store/pg/migrate';
import { pgSql } from './store/pg/sql';
import type { Sql } from './store/sql';

export interface TeamCoreOptions {
  databaseUrl: string;
  clock?: Clock;
  logger?: Logger;
  /** Where ADLENS_SECRET_KEY_FILE is read (the process's environment by default). */
  env?: NodeJS.ProcessEnv;
  /** Connections this process holds at most (one of them listens for events). */
  poolSize?: number;
  /** Lease length and idle poll of the job runners (tests shorten them). */
  jobTimings?: { leaseMs?: number; pollMs?: number };
  /**
   * 'leases' (a serve process): jobs are offered to every process and claimed once. 'here' (a
   * command-line process): the jobs it starts run in it, while it waits for them, under leases it
   * holds (a serve process takes them over if it dies), and it never claims the servers' jobs.
   */
  jobsRun?: 'leases' | 'here';
}

export interface TeamCore extends Core {
  readonly pool: PgPool;
  /** Connections that keep one plan per statement (`connectPg`'s generic plans): for keyed reads only. */
  readonly keptPlans: PgPool;
  /** This process among the server's processes (in job_leases.owner). */
  readonly owner: string;
}

/** What a team process has no use for: reached only by code not yet behind the store boundary. */
function soloOnly(what: string): never {
  throw new AppError('api_error', `${what} belongs to a solo install; a team server has none`);
}

export async function openTeamCore(options: TeamCoreOptions): Promise<TeamCore> {
  // The key first: a missing or malformed key file is refused before anything is opened.
  const tokenCipher = secretKeyFileCipher(options.env ?? process.env);
  const logger = options.logger ?? silentLogger;
  const pool = connectPg(options.databaseUrl, { max: options.poolSize ?? 10 });
  // The hot reads' own connections, which keep their plans (`keptPlan`); opened on first use.
  const keptPlans = connectPg(options.databaseUrl, { max: options.poolSize ?? 10, plans: 'generic' });
  let bridge: PgEventBridge | null = null;
  try {
    try {
      await pool.query('SELECT 1');
    } catch (error) {
      throw pgFailure(error, 'connecting to the database');
    }
    await migratePg(pool);
    const sql = pgSql(pool, keptPlans);
    await checkTeamKey(sql, tokenCipher);
    const events = new CoreEvents();
    bridge = await PgEventBridge.start(events, pool, { logger });
    const leases = new PgJobLeases(pool);
    const owner = jobOwner();
    const jobs: JobsFactory =
      options.jobsRun === 'here'
        ? (kind, jobOptions) =>
            new HeldJobQueue({
              kind,
              leases,
              owner,
              ...(options.jobTimings?.leaseMs ? { leaseMs: options.jobTimings.leaseMs } : {}),
              ...jobOptions,
            })
        : (kind, jobOptions) =>
            new TeamJobQueue({ kind, leases, owner, ...options.jobTimings, ...jobOptions });
    const started = bridge;
    let closing: Promise<void> | undefined;
    return {
      get dataDir(): string {
        return soloOnly('A data directory');
      },
      get store(): never {
        return soloOnly('The SQLite store');
      },
      get db(): never {
        return soloOnly('A SQLite connection');
      },
      sql,
      pool,
      keptPlans,
      owner,
      events,
      clock: options.clock ?? systemClock,
      tokenCipher,
      logger,
      jobs,
      reportFiles: databaseReportFiles(sql),
      // Caches off: a revocation committed by another process must hold on this one's very next
      // request, and no notification arrives that surely (the key and its plan are one statement).
      storeVersion: null,
      figures: new AccountFigures(),
      close: () =>
        (closing ??= (async () => {
          await started.stop();
          await Promise.all([pool.end(), keptPlans.end()]);
        })()),
    };
  } catch (error) {
    await bridge?.stop().catch(() => {});
    await Promise.all([pool.end().catch(() => {}), keptPlans.end().catch(() => {})]);
    throw error;
  }
}

/**
 * The key must be the one this database's secrets were sealed with. A solo install marks its
 * connections for re-authentication when its key file went missing; a team server refuses to start
 * instead: its key is a mounted secret, and a wrong one is a deployment mistake to fix, not a reason
 * to expire every analyst's connections.
 */
async function checkTeamKey(sql: Sql, cipher: TokenCipher): Promise<void> {
  const stored = await sql.get<{ value: string }>(`SELECT value FROM settings WHERE key = ?`, [
    SEALING_CHECK_SETTING,
  ]);
  if (!stored) {
    // A new database (or one `store copy` filled, which writes the check too): seal it now. Two
    // processes starting together both try; the first one's value stays.
    await sql.run(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`, [
      SEALING_CHECK_SETTING,
      sealingCheckValue(cipher),
    ]);
    return;
  }
  if (!sealsWith(cipher, stored.value)) {
    throw new AppError(
      'invalid_request',
      'ADLENS_SECRET_KEY_FILE holds a different key from the one this database was sealed with: start the server with the original key file (tokens sealed with the old key cannot be read with a new one)',
    );
  }
}
