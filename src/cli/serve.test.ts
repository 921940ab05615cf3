import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function serve(dataDir: string, extra: string[] = []): ChildProcessWithoutNullStreams {
  return spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/serve.ts', '--data-dir', dataDir, '--port', '0', ...extra],
    { cwd: ROOT },
  );
}

/** Resolves with the first stdout line containing the URL, or rejects with what the process said. */
function urlLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (match) resolve(match[0]);
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

function exit(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

function cli(args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], { cwd: ROOT });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.once('close', (code) => resolve({ code, stdout }));
  });
}

describe('serve', () => {
  it('provisions an empty directory, refuses a second server, works beside the CLI, and stops cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'adlens-serve-'));
    const server = serve(dataDir);
    const exited = exit(server);
    const url = await urlLine(server);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(existsSync(join(dataDir, 'adlens.lock'))).toBe(true);
    // The real /v1 server: a request without a key is refused as the spec says.
    const response = await fetch(`${url}/v1/accounts`);
    expect(response.status).toBe(401);

    const second = serve(dataDir);
    const secondExit = await exit(second);
    expect(secondExit.code).toBe(1);
    expect(secondExit.stderr).toContain(`in use by the headless AdLens server (pid ${server.pid}`);

    // CLI commands work beside the running server.
    const listed = await cli(['workspace', 'list', '--data-dir', dataDir, '--json']);
    expect(listed.code).toBe(0);
    const { workspaces } = JSON.parse(listed.stdout) as {
      workspaces: { id: string; name: string; plan: string }[];
    };
    expect(workspaces).toEqual([expect.objectContaining({ name: 'Demo Agency', plan: 'trial' })]);
    const accounts = JSON.parse(
      (await cli(['account', 'list', '--workspace', workspaces[0]!.id, '--data-dir', dataDir, '--json']))
        .stdout,
    ) as { accounts: { mode: string }[] };
    expect(accounts.accounts.length).toBeGreaterThan(0);
    expect(accounts.accounts.every((a) => a.mode === 'test')).toBe(true);
    const created = await cli([
      'key',
      'create',
      '--workspace',
      workspaces[0]!.id,
      '--mode',
      'test',
      '--data-dir',
      dataDir,
      '--json',
    ]);
    const { key } = JSON.parse(created.stdout) as { key: string };
    const listedOverHttp = await fetch(`${url}/v1/accounts`, { headers: { 'x-api-key': key } });
    expect(listedOverHttp.status).toBe(200);
    const body = (await listedOverHttp.json()) as { data: unknown[] };
    expect(body.data).toHaveLength(accounts.accounts.length);

    server.kill('SIGTERM');
    const { code, stderr } = await exited;
    expect(code).toBe(0);
    expect(stderr).toContain('stopped cleanly');
    expect(existsSync(join(dataDir, 'adlens.lock'))).toBe(false);
    expect(existsSync(join(dataDir, 'adlens.sqlite-wal'))).toBe(false);
  });

  it('hands out links under --public-url (a reverse proxy in front), and refuses one that is not http(s)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'adlens-serve-public-'));
    const refused = await exit(serve(dataDir, ['--public-url', 'ftp://adlens.example.test']));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--public-url must be an http:// or https:// URL');

    const server = serve(dataDir, ['--public-url', 'https://adlens.example.test/team/']);
    const exited = exit(server);
    let stdout = '';
    server.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const url = await urlLine(server);
    await vi.waitFor(() => expect(stdout).toContain('Links point to https://adlens.example.test/team/'));
    const workspaceId = (
      JSON.parse((await cli(['workspace', 'list', '--data-dir', dataDir, '--json'])).stdout) as {
        workspaces: { id: string }[];
      }
    ).workspaces[0]!.id;
    // An invitation made by the CLI beside the server links to the public address, not the loopback.
    const invited = await cli([
      'user',
      'invite',
      '--workspace',
      workspaceId,
      '--email',
      'ana@example.test',
      '--data-dir',
      dataDir,
      '--json',
    ]);
    expect((JSON.parse(invited.stdout) as { url: string }).url).toMatch(
      /^https:\/\/adlens\.example\.test\/team\//,
    );
    const { key } = JSON.parse(
      (
        await cli([
          'key',
          'create',
          '--workspace',
          workspaceId,
          '--mode',
          'test',
          '--data-dir',
          dataDir,
          '--json',
        ])
      ).stdout,
    ) as { key: string };
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    const accounts = (await (await fetch(`${url}/v1/accounts`, { headers })).json()) as {
      data: { id: string }[];
    };
    const created = await fetch(`${url}/v1/reports`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        account_id: accounts.data[0]!.id,
        title: 'Behind the proxy',
        date_start: '2026-01-01',
        date_end: '2026-01-31',
        format: 'json',
      }),
    });
    expect(created.status).toBe(202);
    const { id } = ((await created.json()) as { data: { id: string } }).data;
    let report: { status: string; downloadUrl: string | null } = { status: 'generating', downloadUrl: null };
    for (let i = 0; i < 300 && report.status === 'generating'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      report = (
        (await (await fetch(`${url}/v1/reports/${id}`, { headers })).json()) as { data: typeof report }
      ).data;
    }
    expect(report.status).toBe('completed');
    expect(report.downloadUrl).toMatch(/^https:\/\/adlens\.example\.test\/team\/v1\/reports\//);
    server.kill('SIGTERM');
    expect((await exited).code).toBe(0);
  });

  it('after a kill -9 mid-sync, the next server takes over the stale lock and completes the sync', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'adlens-serve-kill-'));
    const first = serve(dataDir);
    const firstExit = new Promise((resolve) => first.once('exit', resolve));
    await urlLine(first);
    await stderrContains(first, 'insights:ad_set');
    first.kill('SIGKILL');
    await firstExit;
    expect(existsSync(join(dataDir, 'adlens.lock'))).toBe(true); // left behind: stale

    const second = serve(dataDir);
    const exited = exit(second);
    await urlLine(second);
    await stderrContains(second, 'start-up sync finished');
    second.kill('SIGTERM');
    expect((await exited).code).toBe(0);

    const db = new Database(join(dataDir, 'adlens.sqlite'), { readonly: true });
    const runs = db.prepare(`SELECT status, pid FROM sync_runs ORDER BY started_at`).all() as {
      status: string;
      pid: number;
    }[];
    expect(runs.filter((r) => r.pid === first.pid).map((r) => r.status)).toEqual(['interrupted']);
    expect(runs.some((r) => r.status === 'running')).toBe(false);
    const unsynced = db
      .prepare(`SELECT count(*) FROM ad_accounts WHERE last_synced_at IS NULL`)
      .pluck()
      .get();
    expect(unsynced).toBe(0);
    db.close();
  }, 90_000);
});

function stderrContains(child: ChildProcessWithoutNullStreams, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let err = '';
    const onData = (chunk: Buffer) => {
      err += chunk.toString();
      if (err.includes(text)) {
        child.stderr.off('data', onData);
        resolve();
      }
    };
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited ${code} before printing "${text}": ${err}`)));
  });
}
