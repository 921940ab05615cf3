// Where a finished report's bytes live. A solo install keeps them in its data directory (`reports/`,
// written atomically); a team server has no data directory, so they go into the database's
// `report_files` table and any process serves a download. The row of `reports` names the file by
// its relative path either way.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Sql } from '../store/sql';

export interface ReportFiles {
  /** Stores a finished report's bytes, whole or not at all. */
  save(reportId: string, relativePath: string, body: Buffer): Promise<void>;
  /** The bytes of a stored report, or null when they are gone. */
  read(reportId: string, relativePath: string): Promise<Buffer | null>;
  /** The data directory files live under (the render worker opens it), or null when they are rows. */
  readonly dataDir: string | null;
  /** Where a stored report is on disk (for the command line), or null when files are rows. */
  pathOf(relativePath: string): string | null;
}

/** Files under the data directory (a solo install, the desktop). */
export function dataDirReportFiles(dataDir: string): ReportFiles {
  return {
    dataDir,
    pathOf: (relativePath) => join(dataDir, relativePath),
    save: async (_reportId, relativePath, body) => writeFileAtomic(join(dataDir, relativePath), body),
    read: async (_reportId, relativePath) => {
      const path = join(dataDir, relativePath);
      return existsSync(path) ? readFileSync(path) : null;
    },
  };
}

/** Rows of `report_files` (a team server): one statement each, so a reader sees all or nothing. */
export function databaseReportFiles(sql: Sql): ReportFiles {
  return {
    dataDir: null,
    pathOf: () => null,
    save: async (reportId, _relativePath, body) => {
      await sql.run(
        `INSERT INTO report_files (report_id, content, sha256) VALUES (?, ?, ?)
         ON CONFLICT (report_id) DO UPDATE SET content = excluded.content, sha256 = excluded.sha256`,
        [reportId, body, createHash('sha256').update(body).digest('hex')],
      );
    },
    read: async (reportId) => {
      const row = await sql.get<{ content: Buffer; sha256: string }>(
        `SELECT content, sha256 FROM report_files WHERE report_id = ?`,
        [reportId],
      );
      if (!row) return null;
      // A damaged row is refused rather than served as a broken PDF.
      if (createHash('sha256').update(row.content).digest('hex') !== row.sha256)
        throw new Error(`the stored file of report ${reportId} does not match its checksum`);
      return row.content;
    },
  };
}

/** Writes to a temporary name in the same directory, then renames: readers see all or nothing. */
export function writeFileAtomic(path: string, body: Buffer): void {
  // Report files are the user's data: private like the database (directory 0700, files 0600).
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${randomBytes(6).toString('hex')}.partial`;
  try {
    writeFileSync(temporary, body, { mode: 0o600 });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
