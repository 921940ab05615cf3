// A solo data directory as one end of a copy: its SQLite store, its token.key and its report files.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { AppError } from '../../errors';
import { fileTokenCipher, KEY_FILE, type TokenCipher } from '../../secrets';
import { DATABASE_FILE, openStore, type Store } from '../open';
import type { ReportFile, Row, TargetSide } from './side';
import { copyPlan, type TableSpec } from './tables';

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export class SqliteSide implements TargetSide {
  readonly label: string;
  private readonly written: string[] = [];
  /** The target's triggers, dropped for the copy and created again at its commit. */
  private triggers: { name: string; sql: string }[] = [];

  private constructor(
    readonly store: Store,
    readonly cipher: TokenCipher,
  ) {
    this.label = `data directory ${store.dataDir}`;
  }

  /**
   * An existing install: its database and its key must be there (a new key would open nothing).
   * `readonly` for a check beside a running server: nothing is migrated or written.
   */
  static openSource(dataDir: string, options: { readonly?: boolean } = {}): SqliteSide {
    if (!existsSync(join(dataDir, DATABASE_FILE))) {
      throw new AppError('invalid_request', `${dataDir} holds no AdLens database (${DATABASE_FILE})`);
    }
    if (!existsSync(join(dataDir, KEY_FILE))) {
      throw new AppError(
        'invalid_request',
        `${dataDir} has no ${KEY_FILE}: its sealed tokens cannot be opened, so they cannot be moved`,
      );
    }
    const store = openStore(dataDir, { readonly: options.readonly ?? false });
    return new SqliteSide(store, fileTokenCipher(dataDir));
  }

  /** A new or empty install; it gets its own token.key, as a first start would make it. */
  static openTarget(dataDir: string): SqliteSide {
    const store = openStore(dataDir);
    try {
      const side = new SqliteSide(store, fileTokenCipher(dataDir));
      side.refuseRows(copyPlan(store.db));
      return side;
    } catch (error) {
      store.close();
      throw error;
    }
  }

  tables(): TableSpec[] {
    return copyPlan(this.store.db);
  }

  private refuseRows(tables: readonly TableSpec[]): void {
    const filled = tables.filter((t) =>
      this.store.db.prepare(`SELECT 1 FROM ${quote(t.name)} LIMIT 1`).get(),
    );
    if (filled.length > 0) {
      throw new AppError(
        'conflict',
        `the target ${this.label} is not empty (${filled
          .map((t) => t.name)
          .slice(0, 5)
          .join(', ')}${filled.length > 5 ? ', …' : ''} hold rows); copy into a new, empty data directory`,
      );
    }
  }

  async beginRead(): Promise<void> {
    this.store.db.exec('BEGIN');
  }

  async endRead(): Promise<void> {
    if (this.store.db.inTransaction) this.store.db.exec('COMMIT');
  }

  async count(table: TableSpec): Promise<number> {
    return this.store.db
      .prepare(`SELECT count(*) FROM ${quote(table.name)}`)
      .pluck()
      .get() as number;
  }

  async *rows(table: TableSpec, batchSize: number): AsyncIterable<Row[]> {
    const statement = this.store.db.prepare(
      `SELECT ${table.columns.map((c) => quote(c.name)).join(', ')} FROM ${quote(table.name)} ORDER BY ${table.orderBy.map(quote).join(', ')}`,
    );
    let batch: Row[] = [];
    for (const row of statement.iterate() as IterableIterator<Row>) {
      batch.push(row);
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  async *reportFiles(): AsyncIterable<ReportFile> {
    const reports = this.store.db
      .prepare(`SELECT id, file_path FROM reports WHERE file_path IS NOT NULL ORDER BY id`)
      .all() as { id: string; file_path: string }[];
    for (const report of reports) {
      const path = this.insideDataDir(report.file_path);
      // A report whose file expired or was removed keeps its row; there is nothing to move.
      if (existsSync(path))
        yield { reportId: report.id, filePath: report.file_path, content: readFileSync(path) };
    }
  }

  async beginWrite(tables: readonly TableSpec[]): Promise<void> {
    this.store.db.exec('BEGIN IMMEDIATE');
    this.refuseRows(tables);
    // SQLite cannot switch a trigger off: it is dropped inside the copy's transaction and created
    // again before the commit (a rollback brings it back by itself, DDL being transactional).
    this.triggers = this.store.db
      .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name`)
      .all() as { name: string; sql: string }[];
    for (const trigger of this.triggers) this.store.db.exec(`DROP TRIGGER ${quote(trigger.name)}`);
  }

  async insert(table: TableSpec, rows: readonly Row[]): Promise<void> {
    const names = table.columns.map((c) => c.name);
    const statement = this.store.db.prepare(
      `INSERT INTO ${quote(table.name)} (${names.map(quote).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
    );
    for (const row of rows) statement.run(names.map((name) => row[name] ?? null));
  }

  async writeReportFile(file: ReportFile): Promise<void> {
    const path = this.insideDataDir(file.filePath);
    mkdirSync(join(this.store.dataDir, 'reports'), { recursive: true, mode: 0o700 });
    // Overwrites a file left by a copy that was killed before its commit (the rows were rolled back).
    writeFileSync(path, file.content, { mode: 0o600 });
    this.written.push(path);
  }

  async commit(): Promise<void> {
    for (const trigger of this.triggers.splice(0)) this.store.db.exec(trigger.sql);
    this.store.db.exec('COMMIT');
    this.written.length = 0;
  }

  async rollback(): Promise<void> {
    this.triggers.length = 0;
    if (this.store.db.inTransaction) this.store.db.exec('ROLLBACK');
    for (const path of this.written.splice(0)) rmSync(path, { force: true });
  }

  async close(): Promise<void> {
    this.store.close();
  }

  /** A report's file, refused when its stored path would lead out of the reports folder. */
  private insideDataDir(filePath: string): string {
    const reports = resolve(this.store.dataDir, 'reports');
    const path = resolve(this.store.dataDir, filePath);
    if (relative(reports, path).startsWith('..') || !path.startsWith(reports + sep)) {
      throw new AppError('store_error', `a report's file path leads outside the reports folder: ${filePath}`);
    }
    return path;
  }
}
