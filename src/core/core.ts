import { systemClock, type Clock } from './clock';
import { CoreEvents } from './events';
import { fileTokenCipher, type TokenCipher } from './secrets';
import { checkSealingKey } from './sealing-check';
import { openStore, type Db, type Store } from './store/open';
import { sqliteSql, type Sql } from './store/sql';

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
  close(): void;
}

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
      close: () => store.close(),
    };
  } catch (error) {
    store.close();
    throw error;
  }
}
