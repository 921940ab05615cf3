// `store copy`: moves a whole install between a solo data directory (SQLite) and a team database
// (PostgreSQL), either way. Every table in parent-first order and the report files go in one
// transaction on the target (an interrupted copy leaves it empty), secrets re-sealed with the
// target's key; then each table's rows are counted and hashed on both sides (checksum.ts). `store
// check` compares two stores the same way without copying (sumsOf, compare).
import { createHash } from 'node:crypto';
import { AppError } from '../../errors';
import { reportFilesChecksum, TableChecksum } from './checksum';
import { isSealingCheck, openedRow, resealRow, type SealingTally } from './sealed';
import type { ReportFile, StoreSide, TargetSide } from './side';
import type { TableSpec } from './tables';

export interface CopyProgress {
  table: string;
  /** Rows copied so far, over all tables, of `total`. */
  copied: number;
  total: number;
}

export interface TableComparison {
  table: string;
  source: { rows: number; checksum: string };
  target: { rows: number; checksum: string };
  match: boolean;
}

/** Two stores compared table by table (`store check`, and the end of a copy). */
export interface CheckOutcome {
  from: string;
  to: string;
  tables: TableComparison[];
  /** Every table (and the report files) has the same count and checksum on both sides. */
  match: boolean;
}

export interface CopyOutcome extends CheckOutcome {
  sealing: SealingTally;
}

/** Rows read per batch, on either side. */
const BATCH_SIZE = 2000;

/** A report file as its checksum counts it: its report and the SHA-256 of its bytes. */
const fileDigest = (file: ReportFile) => ({
  reportId: file.reportId,
  sha256: createHash('sha256').update(file.content).digest('hex'),
});

export interface CopyOptions {
  /** Called after each batch; a throw aborts the copy (and rolls the target back). */
  onProgress?: (progress: CopyProgress) => void;
  batchSize?: number;
}

export const REPORT_FILES_LABEL = 'report files';

function wrongKey(source: StoreSide): AppError {
  return new AppError(
    'invalid_request',
    `the key of the source ${source.label} does not open its sealed secrets (the key check fails): use the key they were sealed with (a data directory's own token.key; ADLENS_SECRET_KEY_FILE for a database). A desktop install seals with the OS keychain: start it once headless (npm run serve) with its key file, or reconnect the accounts after the move.`,
  );
}

/** Refuses before writing anything when the source's key is not the one its secrets were sealed with. */
async function checkSourceKey(source: StoreSide, tables: readonly TableSpec[]): Promise<void> {
  const settings = tables.find((t) => t.name === 'settings');
  if (!settings) return;
  for await (const batch of source.rows(settings, 500)) {
    for (const row of batch) {
      if (isSealingCheck('settings', row) && openedRow('settings', row, source.cipher) === row)
        throw wrongKey(source);
    }
  }
}

/** Each table's rows and checksum, and the report files', read in one consistent read of a side. */
export interface StoreSums {
  tables: Map<string, { rows: number; checksum: string }>;
  files: { rows: number; checksum: string };
}

export async function sumsOf(
  side: StoreSide,
  tables: readonly TableSpec[],
  batchSize = BATCH_SIZE,
): Promise<StoreSums> {
  const sums: StoreSums['tables'] = new Map();
  const files: { reportId: string; sha256: string }[] = [];
  await side.beginRead();
  try {
    for (const table of tables) {
      const sum = new TableChecksum(table, side.cipher);
      for await (const batch of side.rows(table, batchSize)) for (const row of batch) sum.add(row);
      sums.set(table.name, { rows: sum.rows, checksum: sum.digest() });
    }
    for await (const file of side.reportFiles()) files.push(fileDigest(file));
  } finally {
    await side.endRead();
  }
  return { tables: sums, files: { rows: files.length, checksum: reportFilesChecksum(files) } };
}

/** Table by table (then the report files): the same count and checksum on both sides? */
export function compare(
  tables: readonly TableSpec[],
  source: StoreSums,
  target: StoreSums,
): TableComparison[] {
  const none = { rows: 0, checksum: '' };
  const one = (table: string, a: StoreSums['files'], b: StoreSums['files']): TableComparison => ({
    table,
    source: a,
    target: b,
    match: a.rows === b.rows && a.checksum === b.checksum,
  });
  return [
    ...tables.map((t) => one(t.name, source.tables.get(t.name) ?? none, target.tables.get(t.name) ?? none)),
    one(REPORT_FILES_LABEL, source.files, target.files),
  ];
}

export async function copyStore(
  source: StoreSide,
  target: TargetSide,
  tables: readonly TableSpec[],
  options: CopyOptions = {},
): Promise<CopyOutcome> {
  const batchSize = options.batchSize ?? BATCH_SIZE;
  const sealing: SealingTally = { resealed: 0, unopened: 0 };
  const sourceTables = new Map<string, TableChecksum>();
  const sourceFiles: { reportId: string; sha256: string }[] = [];

  await source.beginRead();
  try {
    let total = 0;
    for (const table of tables) total += await source.count(table);
    await checkSourceKey(source, tables);
    await target.beginWrite(tables);
    try {
      let copied = 0;
      for (const table of tables) {
        const sum = new TableChecksum(table, source.cipher);
        sourceTables.set(table.name, sum);
        options.onProgress?.({ table: table.name, copied, total });
        for await (const batch of source.rows(table, batchSize)) {
          for (const row of batch) sum.add(row);
          await target.insert(
            table,
            batch.map((row) => resealRow(table.name, row, source.cipher, target.cipher, sealing)),
          );
          copied += batch.length;
          options.onProgress?.({ table: table.name, copied, total });
        }
      }
      for await (const file of source.reportFiles()) {
        await target.writeReportFile(file);
        sourceFiles.push(fileDigest(file));
      }
      if (sealing.resealed === 0 && sealing.unopened > 0) throw wrongKey(source);
      await target.commit();
    } catch (error) {
      await target.rollback();
      throw error;
    }
  } finally {
    await source.endRead();
  }

  // The source was summed as it was read for the copy; the target is read back whole.
  const copied: StoreSums = {
    tables: new Map(
      [...sourceTables].map(([name, sum]) => [name, { rows: sum.rows, checksum: sum.digest() }]),
    ),
    files: { rows: sourceFiles.length, checksum: reportFilesChecksum(sourceFiles) },
  };
  const comparisons = compare(tables, copied, await sumsOf(target, tables, batchSize));
  return {
    from: source.label,
    to: target.label,
    tables: comparisons,
    match: comparisons.every((c) => c.match),
    sealing,
  };
}
