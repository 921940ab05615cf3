// One end of a copy: a solo data directory (SQLite) or a team database (PostgreSQL), both behind the
// same small asynchronous surface so the copy itself is written once for both directions.
import type { TokenCipher } from '../../secrets';
import type { TableSpec } from './tables';

export type Row = Record<string, unknown>;

export interface ReportFile {
  reportId: string;
  /** As reports.file_path stores it: relative to the data directory (reports/<id>.<ext>). */
  filePath: string;
  content: Buffer;
}

export interface StoreSide {
  /** For messages: "data directory /srv/adlens" or "database adlens on db.internal:5432". */
  readonly label: string;
  readonly cipher: TokenCipher;
  /** Starts a consistent read: everything read until endRead() sees one state of the store. */
  beginRead(): Promise<void>;
  endRead(): Promise<void>;
  count(table: TableSpec): Promise<number>;
  /** The table's rows in primary-key order (text bytewise, NULL first), in batches. */
  rows(table: TableSpec, batchSize: number): AsyncIterable<Row[]>;
  reportFiles(): AsyncIterable<ReportFile>;
  close(): Promise<void>;
}

export interface TargetSide extends StoreSide {
  /**
   * Opens the one write transaction of the copy; refuses a target that holds any row. The target's
   * triggers (rollups, maintained counts) stay off until commit: every table is copied verbatim,
   * the source's maintained values being the truth the checksums compare.
   */
  beginWrite(tables: readonly TableSpec[]): Promise<void>;
  insert(table: TableSpec, rows: readonly Row[]): Promise<void>;
  writeReportFile(file: ReportFile): Promise<void>;
  commit(): Promise<void>;
  /** Undoes everything since beginWrite(): rows and report files. */
  rollback(): Promise<void>;
}
