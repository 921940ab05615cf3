// A team database as one end of a copy: its tables (migrated first), the key of
// ADLENS_SECRET_KEY_FILE, and report files in report_files. One client does all the work, so the
// copy's write is one transaction and a read sees one snapshot (REPEATABLE READ).
import { createHash } from 'node:crypto';
import { AppError } from '../../errors';
import type { TokenCipher } from '../../secrets';
import { connectPg, pgFailure, type PgClient, type PgPool } from '../pg/connect';
import { migratePg } from '../pg/migrate';
import type { ReportFile, Row, TargetSide } from './side';
import type { TableSpec } from './tables';

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const ARRAY_TYPES = { integer: 'bigint[]', real: 'float8[]', text: 'text[]', blob: 'bytea[]' } as const;
const REPORT_FILES = 'report_files';

/** ORDER BY that matches SQLite's: text by bytes (the "C" collation), NULL first. */
function orderBy(table: TableSpec): string {
  return table.orderBy
    .map((name) => {
      const kind = table.columns.find((c) => c.name === name)?.kind;
      return `${quote(name)}${kind === 'text' ? ' COLLATE "C"' : ''} NULLS FIRST`;
    })
    .join(', ');
}

export class PgSide implements TargetSide {
  private cursors = 0;
  /** Tables whose own triggers are off while the copy writes (switched on again at its commit). */
  private triggered: string[] = [];

  private constructor(
    readonly label: string,
    readonly cipher: TokenCipher,
    private readonly pool: PgPool,
    private readonly client: PgClient,
  ) {}

  static async open(url: string, cipher: TokenCipher): Promise<PgSide> {
    const pool = connectPg(url, { max: 1 });
    const { hostname, port, pathname } = new URL(url);
    const label = `database ${decodeURIComponent(pathname.slice(1)) || '(default)'} on ${hostname}:${port || 5432}`;
    try {
      await migratePg(pool);
      return new PgSide(label, cipher, pool, await pool.connect());
    } catch (error) {
      await pool.end().catch(() => {});
      throw pgFailure(error, `opening the ${label}`);
    }
  }

  async beginRead(): Promise<void> {
    await this.client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  }

  async endRead(): Promise<void> {
    await this.client.query('COMMIT');
  }

  async count(table: TableSpec): Promise<number> {
    const { rows } = await this.client.query<{ n: number }>(`SELECT count(*) AS n FROM ${quote(table.name)}`);
    return rows[0]?.n ?? 0;
  }

  private async *cursor<T extends Row>(sql: string, batchSize: number): AsyncIterable<T[]> {
    const name = `copy_${++this.cursors}`;
    await this.client.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${sql}`);
    try {
      for (;;) {
        const { rows } = await this.client.query<T>(`FETCH FORWARD ${batchSize} FROM ${name}`);
        if (rows.length === 0) break;
        yield rows;
      }
    } finally {
      await this.client.query(`CLOSE ${name}`).catch(() => {});
    }
  }

  rows(table: TableSpec, batchSize: number): AsyncIterable<Row[]> {
    const columns = table.columns.map((c) => quote(c.name)).join(', ');
    return this.cursor(`SELECT ${columns} FROM ${quote(table.name)} ORDER BY ${orderBy(table)}`, batchSize);
  }

  async *reportFiles(): AsyncIterable<ReportFile> {
    const batches = this.cursor<{ report_id: string; file_path: string; content: Buffer }>(
      `SELECT f.report_id, r.file_path, f.content FROM ${REPORT_FILES} f JOIN reports r ON r.id = f.report_id
       WHERE r.file_path IS NOT NULL ORDER BY f.report_id COLLATE "C"`,
      16,
    );
    for await (const batch of batches) {
      for (const file of batch)
        yield { reportId: file.report_id, filePath: file.file_path, content: file.content };
    }
  }

  async beginWrite(tables: readonly TableSpec[]): Promise<void> {
    const names = [...tables.map((t) => t.name), REPORT_FILES];
    await this.client.query('BEGIN');
    // Nobody writes beside the copy, and the emptiness seen here holds until it commits.
    await this.client.query(`LOCK TABLE ${names.map(quote).join(', ')} IN ACCESS EXCLUSIVE MODE`);
    const { rows } = await this.client.query<{ filled: string[] }>(
      `SELECT array_remove(ARRAY[${names
        .map((name, i) => `CASE WHEN EXISTS (SELECT 1 FROM ${quote(name)}) THEN $${i + 1}::text END`)
        .join(', ')}], NULL) AS filled`,
      names,
    );
    const filled = rows[0]?.filled ?? [];
    if (filled.length > 0) {
      await this.client.query('ROLLBACK');
      throw new AppError(
        'conflict',
        `the target ${this.label} is not empty (${filled.slice(0, 5).join(', ')}${filled.length > 5 ? ', …' : ''} hold rows); copy into a new, empty database`,
      );
    }
    // Rollups and maintained counts are copied as they are: the tables' own triggers stay off until
    // the commit (USER leaves the foreign-key checks on; a rollback switches them back by itself).
    const { rows: triggered } = await this.client.query<{ table_name: string }>(
      `SELECT DISTINCT event_object_table AS table_name FROM information_schema.triggers
       WHERE trigger_schema = current_schema() ORDER BY 1`,
    );
    this.triggered = triggered.map((t) => t.table_name);
    for (const table of this.triggered)
      await this.client.query(`ALTER TABLE ${quote(table)} DISABLE TRIGGER USER`);
  }

  async insert(table: TableSpec, rows: readonly Row[]): Promise<void> {
    if (rows.length === 0) return;
    // One array per column, unnested into rows: a batch is one short statement with a parameter
    // per column, which PostgreSQL parses once (many times faster than a VALUES list per row).
    const columns = table.columns.map((c) => quote(c.name)).join(', ');
    const arrays = table.columns.map((c, i) => `$${i + 1}::${ARRAY_TYPES[c.kind]}`).join(', ');
    await this.client.query(
      `INSERT INTO ${quote(table.name)} (${columns}) SELECT * FROM unnest(${arrays})`,
      table.columns.map((c) => rows.map((row) => row[c.name] ?? null)),
    );
  }

  async writeReportFile(file: ReportFile): Promise<void> {
    await this.client.query(`INSERT INTO ${REPORT_FILES} (report_id, content, sha256) VALUES ($1, $2, $3)`, [
      file.reportId,
      file.content,
      createHash('sha256').update(file.content).digest('hex'),
    ]);
  }

  async commit(): Promise<void> {
    // Identity columns (change_events.id) continue after the copied rows, as SQLite's rowid would.
    const { rows } = await this.client.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = current_schema() AND is_identity = 'YES'`,
    );
    for (const { table_name, column_name } of rows) {
      await this.client.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT max(${quote(column_name)}) FROM ${quote(table_name)}), 0) + 1, false)`,
        [table_name, column_name],
      );
    }
    for (const table of this.triggered.splice(0))
      await this.client.query(`ALTER TABLE ${quote(table)} ENABLE TRIGGER USER`);
    await this.client.query('COMMIT');
  }

  async rollback(): Promise<void> {
    await this.client.query('ROLLBACK').catch(() => {});
  }

  async close(): Promise<void> {
    this.client.release();
    await this.pool.end();
  }
}
