// The report CLI commands against a real data directory.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../core/core';
import { seedReportFixture, type ReportFixture } from '../../test-support/reports-fixtures';
import { runCommand } from '../framework';
import reportCommands from './reports';

let dir: string;
let f: ReportFixture;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'adlens-report-cli-'));
  const core = createCore({ dataDir: dir });
  f = seedReportFixture(core.db, { campaigns: 3 });
  core.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCommand('report', reportCommands, [...argv, '--data-dir', dir], {
    stdout: (text) => (out += text),
    stderr: (text) => (err += text),
  });
  return { code, out, err };
}

describe('report CLI', () => {
  it('creates a report, waits for it and prints the file path; lists it', async () => {
    const args = [
      '--workspace',
      f.workspaceId,
      '--account',
      f.platformAccountId,
      '--from',
      '2026-03-01',
      '--to',
      '2026-03-31',
    ];
    const created = await cli('create', ...args, '--title', 'CLI Отчёт', '--format', 'markdown');
    expect(created.code).toBe(0);
    const path = created.out.trim();
    expect(path).toMatch(/reports\/rpt_\w+\.md$/);
    expect(readFileSync(path, 'utf8')).toContain('# CLI Отчёт');
    const json = await cli(
      'create',
      ...args,
      '--title',
      'JSON',
      '--format',
      'json',
      '--campaigns',
      f.campaignIds[0] ?? '',
      '--json',
    );
    const parsed = JSON.parse(json.out) as {
      report: { status: string; campaignIds: string[] };
      path: string;
    };
    expect(parsed.report).toMatchObject({ status: 'completed', campaignIds: [f.campaignIds[0]] });
    expect(existsSync(parsed.path)).toBe(true);
    const list = await cli('list', '--workspace', f.workspaceId, '--json');
    expect((JSON.parse(list.out) as { total: number }).total).toBe(2);
  });

  it('writes a report in the language of --locale', async () => {
    const args = ['--workspace', f.workspaceId, '--account', f.platformAccountId, '--from', '2026-03-01'];
    const ja = await cli(
      'create',
      ...args,
      '--to',
      '2026-03-31',
      '--title',
      '月次レポート',
      '--format',
      'markdown',
      '--locale',
      'ja',
    );
    expect(ja.code).toBe(0);
    expect(readFileSync(ja.out.trim(), 'utf8')).toContain('## サマリー');
  });

  it('schedules, lists and cancels a recurring report', async () => {
    const scheduled = await cli(
      'schedule',
      '--workspace',
      f.workspaceId,
      '--account',
      f.accountId,
      '--title',
      'Weekly',
      '--cadence',
      'weekly',
      '--locale',
      'ja',
      '--folder',
      '/tmp/adlens-weekly',
      '--email',
      'a@client.test, b@client.test',
      '--json',
    );
    expect(scheduled.code).toBe(0);
    const parsed = JSON.parse(scheduled.out) as {
      schedule: { id: string; locale: string; delivery: { folder: string; emails: string[] } };
    };
    expect(parsed.schedule).toMatchObject({
      locale: 'ja',
      delivery: { folder: '/tmp/adlens-weekly', emails: ['a@client.test', 'b@client.test'] },
    });
    const id = parsed.schedule.id;
    const pending = await cli('list', '--workspace', f.workspaceId, '--status', 'pending', '--json');
    expect((JSON.parse(pending.out) as { total: number }).total).toBe(1);
    expect((await cli('schedules', '--workspace', f.workspaceId)).out).toContain(id);
    expect((await cli('unschedule', id, '--workspace', f.workspaceId)).code).toBe(0);
    const after = await cli('list', '--workspace', f.workspaceId, '--status', 'pending', '--json');
    expect((JSON.parse(after.out) as { total: number }).total).toBe(0);
  });

  it('exits non-zero with a clear message on bad input', async () => {
    const bad = await cli(
      'create',
      '--workspace',
      f.workspaceId,
      '--account',
      f.accountId,
      '--title',
      'X',
      '--from',
      '2026-03-31',
      '--to',
      '2026-03-01',
    );
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/after date_end/);
    const missing = await cli(
      'schedule',
      '--workspace',
      f.workspaceId,
      '--account',
      f.accountId,
      '--title',
      'X',
      '--cadence',
      'daily',
    );
    expect(missing.code).toBe(2);
  });
});
