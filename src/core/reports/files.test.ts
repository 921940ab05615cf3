// Report files on either side: the data directory of a solo install, and `report_files` on a team
// server's PostgreSQL (SQLite has no such table: a solo install keeps them on disk).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { engineStores, seedWorkspaceRows } from '../../test-support/engines';
import { dataDirReportFiles, databaseReportFiles } from './files';

const engines = engineStores();
afterAll(() => engines.stop(), 60_000);

const PDF = Buffer.from('%PDF-1.7\n% a report\n%%EOF\n');

describe('report files', () => {
  it('in a data directory: written whole under reports/, read back, missing as null', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adlens-report-files-'));
    try {
      const files = dataDirReportFiles(dir);
      await files.save('rep_1', join('reports', 'rep_1.pdf'), PDF);
      expect(readdirSync(join(dir, 'reports'))).toEqual(['rep_1.pdf']);
      expect(await files.read('rep_1', join('reports', 'rep_1.pdf'))).toEqual(PDF);
      expect(await files.read('rep_2', join('reports', 'rep_2.pdf'))).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('in PostgreSQL: any connection reads what another saved, a damaged row is refused', async () => {
    const { sql, close } = await engines.open('postgres');
    await seedWorkspaceRows(sql, 'ws_A');
    await sql.run(
      `INSERT INTO platform_connections (id, workspace_id, base_url, api_version, mode, token_encrypted, created_at, updated_at)
       VALUES ('conn_A', 'ws_A', 'demo:', 'v25.0', 'test', ?, 'x', 'x')`,
      [Buffer.from([0])],
    );
    await sql.run(
      `INSERT INTO ad_accounts (id, workspace_id, connection_id, platform_account_id, mode, name, currency, timezone, status, connected_at)
       VALUES ('acc_A', 'ws_A', 'conn_A', 'act_1', 'test', 'A', 'USD', 'UTC', 'active', 'x')`,
    );
    await sql.run(
      `INSERT INTO reports (id, workspace_id, account_id, title, format, status, date_from, date_to, created_at)
       VALUES ('rep_1', 'ws_A', 'acc_A', 'T', 'pdf', 'generating', '2026-11-01', '2026-11-27', 'x')`,
    );
    const files = databaseReportFiles(sql);
    expect(await files.read('rep_1', 'reports/rep_1.pdf')).toBeNull();
    await files.save('rep_1', 'reports/rep_1.pdf', PDF);
    await files.save('rep_1', 'reports/rep_1.pdf', PDF); // a retried render replaces, never duplicates
    expect(await files.read('rep_1', 'reports/rep_1.pdf')).toEqual(PDF);
    await sql.run(`UPDATE report_files SET content = ? WHERE report_id = 'rep_1'`, [Buffer.from('broken')]);
    await expect(files.read('rep_1', 'reports/rep_1.pdf')).rejects.toThrow(/checksum/);
    await close();
  });
});
