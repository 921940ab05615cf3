// A table's checksum, the same on both engines for the same rows: SHA-256 over the rows in primary-key
// order (both sides order text bytewise), each value written canonically by its column's kind, so an
// integer that one engine returns as text or a REAL that round-trips through DOUBLE PRECISION hash
// alike. Sealed secrets enter opened (sealed.ts), as two sealings of one secret differ.
import { createHash, type Hash } from 'node:crypto';
import type { TokenCipher } from '../../secrets';
import { openedRow } from './sealed';
import type { ColumnKind, TableSpec } from './tables';

function canonical(value: unknown, kind: ColumnKind): string {
  if (value === null || value === undefined) return 'N';
  if (typeof value === 'object' && !Buffer.isBuffer(value) && 'opened' in value) {
    return `S${JSON.stringify((value as { opened: unknown }).opened)}`;
  }
  switch (kind) {
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value)
        ? `I${value}`
        : `I${BigInt(value as number | bigint | string).toString()}`;
    case 'real':
      return `R${Number(value).toString()}`;
    case 'blob':
      return `B${Buffer.isBuffer(value) ? value.toString('hex') : Buffer.from(String(value)).toString('hex')}`;
    default:
      return `T${JSON.stringify(Buffer.isBuffer(value) ? value.toString('utf8') : String(value))}`;
  }
}

export class TableChecksum {
  private readonly hash: Hash = createHash('sha256');
  rows = 0;

  constructor(
    private readonly table: TableSpec,
    private readonly cipher: TokenCipher,
  ) {}

  add(row: Record<string, unknown>): void {
    const opened = openedRow(this.table.name, row, this.cipher);
    this.hash.update(this.table.columns.map((c) => canonical(opened[c.name], c.kind)).join('\u001f'));
    this.hash.update('\n');
    this.rows += 1;
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/** Report files: their report and the SHA-256 of their bytes, in report order. */
export function reportFilesChecksum(files: readonly { reportId: string; sha256: string }[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) =>
    a.reportId < b.reportId ? -1 : a.reportId > b.reportId ? 1 : 0,
  )) {
    hash.update(`${file.reportId}\u001f${file.sha256}\n`);
  }
  return hash.digest('hex');
}
