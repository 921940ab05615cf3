import { systemClock, type Clock } from './clock';
import { CoreEvents } from './events';
import type { JobsFactory } from './jobs/jobs';
import { JobQueue } from './jobs/queue';
import { dataDirReportFiles, type ReportFiles } from './reports/files';
import { fileTokenCipher, type TokenCipher } from './secrets';
import { checkSealingKey } from './sealing-check';
import { openStore, type Db, type Store } from './store/open';
import { sqliteSql, type Sql } from './store/sql';
import { storeVersion } from './store/version';
import { AccountFigures } from './insights/account-figures';

/** Host-specific parts, each with a Node default; the Electron host passes its own. */
export interface CoreOptions {
  dataDir: string;
  clock?: Clock;
  tokenCipher?: TokenCipher;
  logger?: Logger;
}

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const consoleLogger: Logger = {
  info: (message, fields) => console.log(message, fields ?? ''),
  warn: (message, fields) => console.warn(message, fields ?? ''),
  error: (message, fields) => console.error(message, fields ?? ''),
};

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** What every service of the core is built from: one store, one event bus, one clock. */
export interface Core {
  readonly dataDir: string;
  readonly store: Store;
  /** The SQLite connection of the stores not yet behind the asynchronous boundary (`sql`). */
  readonly db: Db;
  /** The store boundary every converted domain store speaks through (SQLite here; PostgreSQL on a team server). */
  readonly sql: Sql;
  readonly events: CoreEvents;
  readonly clock: Clock;
  readonly tokenCipher: TokenCipher;
  readonly logger: Logger;
  /** Where each service's background jobs run: this process (solo) or any serve process (team). */
  readonly jobs: JobsFactory;
  /** Where finished report files live: the data directory (solo) or the database (team). */
  readonly reportFiles: ReportFiles;
  /**
   * Changes whenever the store may have changed: the /v1 caches (keys, answers) hold while it stays
   * the same. Solo: SQLite's change counter and data_version, read on each request; team: none (no
   * counter tells one process another's commits the moment they happen), so every request reads its
   * key and computes its answer, and no answer is kept.
   */
  readonly storeVersion: (() => string) | null;
  /** Per-account figures the read models keep under each account's revision (one per process). */
  readonly figures: AccountFigures;
  /** Closes the store (a team server's pool ends asynchronously). */
  close(): void | Promise<void>;
}

/** Solo: every job runs in this process, on its one queue per service. */
export const localJobs: JobsFactory = (_kind, options) => new JobQueue(options);

export function createCore(options: CoreOptions): Core {
  const store = openStore(options.dataDir);
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  try {
    const tokenCipher = options.tokenCipher ?? fileTokenCipher(options.dataDir);
    checkSealingKey(store.db, tokenCipher, clock.now(), logger);
    return {
      dataDir: options.dataDir,
      store,
      db: store.db,
      sql: sqliteSql(store.db),
      events: new CoreEvents(),
      clock,
      tokenCipher,
      logger,
      jobs: localJobs,
      reportFiles: dataDirReportFiles(options.dataDir),
      storeVersion: storeVersion(store.db),
      figures: new AccountFigures(),
      close: () => store.close(),
    };
  } catch (error) {
    store.close();
    throw error;
  }
}
