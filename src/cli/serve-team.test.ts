// Three `serve --database-url` processes on one real PostgreSQL behave as one server (issue 18): they
// provision the demo workspace once, share rate limits (120 reads a minute per key in total) and key
// changes (a limit or revocation made anywhere holds on every process's next request), relay
// events (a stream on one process receives what another announces), run a job once, and when the
// process syncing an account is killed with SIGKILL another finishes the sync within the minute,
// with no row lost or duplicated; one stopped with SIGTERM hands its sync over at once; and a command
// (`npm run cli -- sync --database-url`) killed mid-sync has its run taken over the same way.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPg, type PgPool } from '../core/store/pg/connect';
import { startTestPostgres, writeTeamKeyFile, type TestPostgres } from '../test-support/postgres';

const ROOT = join(import.meta.dirname, '..', '..');

let server: TestPostgres;
let dir: string;
let databaseUrl: string;
let pool: PgPool;
let env: NodeJS.ProcessEnv;
const children: ChildProcessWithoutNullStreams[] = [];

interface Serve {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stderr: () => string;
}

function serve(): Promise<Serve> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/serve.ts', '--database-url', databaseUrl, '--port', '0'],
    { cwd: ROOT, env },
  );
  children.push(child);
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /AdLens API listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve({ child, url: match[1] as string, stderr: () => err });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/index.ts', ...args, '--database-url', databaseUrl, '--json'],
      { cwd: ROOT, env },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function until<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 180_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const rows = async <T>(text: string, params: unknown[] = []): Promise<T[]> =>
  (await pool.query(text, params)).rows as T[];

/** An account's stored counts and ad spend: a sync taken over must leave them as they were. */
async function accountSnapshot(account: string): Promise<Record<string, string> | undefined> {
  const [snapshot] = await rows<Record<string, string>>(
    `SELECT (SELECT count(*) FROM campaigns WHERE account_id = $1)::text AS campaigns,
            (SELECT count(*) FROM ads WHERE account_id = $1)::text AS ads,
            (SELECT count(*) FROM insights_campaign_daily WHERE account_id = $1)::text AS campaign_days,
            (SELECT count(*) FROM insights_ad_daily WHERE account_id = $1)::text AS ad_days,
            (SELECT sum(spend_micros) FROM insights_ad_daily WHERE account_id = $1)::text AS ad_spend`,
    [account],
  );
  expect(Number(snapshot?.ad_days)).toBeGreaterThan(0);
  return snapshot;
}

/** The account's latest sync lease. */
async function syncLease(account: string) {
  return (
    await rows<{ status: string; attempts: number; owner: string }>(
      `SELECT status, attempts, owner FROM job_leases WHERE kind = 'sync' AND exclusive_key = $1
        ORDER BY offered_at DESC LIMIT 1`,
      [account],
    )
  )[0];
}

/**
 * Waits for another process than `owner` to claim the account's sync again (attempt 2), then for it
 * to finish: the same run, completed, with the account's rows as `stored`. How long after the call
 * the second claim came.
 */
async function takenOver(
  account: string,
  was: { owner: string; run: string; stored: Record<string, string> | undefined },
): Promise<{ claimedAfterMs: number }> {
  const from = Date.now();
  const claimed = await until(async () => {
    const found = await syncLease(account);
    return (found?.attempts ?? 0) >= 2 ? found : null;
  }, 90_000);
  const claimedAfterMs = Date.now() - from;
  expect(claimed.owner).not.toBe(was.owner);
  const finished = await until(async () => {
    const found = await syncLease(account);
    return found?.status === 'done' ? found : null;
  }, 180_000);
  expect(finished.attempts).toBe(2);
  const runs = await rows<{ id: string; kind: string; status: string }>(
    `SELECT id, kind, status FROM sync_runs WHERE account_id = $1 ORDER BY started_at DESC LIMIT 1`,
    [account],
  );
  expect(runs[0]).toEqual({ id: was.run, kind: 'full', status: 'completed' });
  expect(await accountSnapshot(account)).toEqual(was.stored);
  return { claimedAfterMs };
}

/**
 * Starts a full sync of the account through `via` with every ad-day row to read again, and waits
 * until a process has claimed it: that process (from its lease's owner) and the owner.
 */
async function fullSyncMidway(
  account: string,
  via: Serve,
  serves: readonly Serve[],
  key: string,
): Promise<{ owner: string; victim: Serve }> {
  // The next sync is a full one (no completed run left), and it has every ad-day row to read again.
  await pool.query(`UPDATE sync_runs SET status = 'failed' WHERE account_id = $1`, [account]);
  await pool.query(`DELETE FROM insights_ad_daily WHERE account_id = $1`, [account]);
  const started = await fetch(`${via.url}/v1/accounts/${account}/sync`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(started.status).toBe(202);
  const owner = await until(async () => {
    const found = await rows<{ owner: string }>(
      `SELECT owner FROM job_leases WHERE kind = 'sync' AND status = 'running' AND exclusive_key = $1`,
      [account],
    );
    return found[0]?.owner ?? null;
  });
  const pid = Number(owner.split(':')[1]);
  const victim = serves.find((serve) => serve.child.pid === pid);
  expect(victim).toBeDefined();
  return { owner, victim: victim as Serve };
}

beforeAll(async () => {
  server = await startTestPostgres();
  databaseUrl = await server.createDatabase();
  dir = mkdtempSync(join(tmpdir(), 'adlens-team-serve-'));
  const keyFile = writeTeamKeyFile(dir);
  // Each demo request answers 60 ms late, so a sync lasts long enough to be caught mid-way.
  env = { ...process.env, ADLENS_SECRET_KEY_FILE: keyFile, ADLENS_DEMO_LATENCY_MS: '60' };
  pool = connectPg(databaseUrl, { max: 2 });
}, 120_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await pool?.end();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('three serve processes on one PostgreSQL', () => {
  let processes: Serve[];
  let key: string;
  let workspaceId: string;

  it('start together, provision the demo workspace once, and finish the start-up syncs', async () => {
    processes = await Promise.all([serve(), serve(), serve()]);
    expect(await rows(`SELECT name, plan FROM workspaces`)).toEqual([{ name: 'Demo Agency', plan: 'trial' }]);
    workspaceId = (await rows<{ id: string }>(`SELECT id FROM workspaces`))[0]!.id;
    const accounts = await rows<{ id: string }>(`SELECT id FROM ad_accounts`);
    expect(accounts.length).toBeGreaterThan(0);
    // Every account syncs once at start-up, whichever process claimed it.
    await until(async () => {
      const done = await rows(`SELECT 1 FROM ad_accounts WHERE last_synced_at IS NOT NULL`);
      return done.length === accounts.length;
    });
    const created = await cli(['key', 'create', '--workspace', workspaceId, '--mode', 'test']);
    expect(created.code, created.stderr).toBe(0);
    key = (JSON.parse(created.stdout) as { key: string }).key;
  }, 360_000);

  it('relays an event announced on one process to a stream on another', async () => {
    const [first, second] = processes as [Serve, Serve, Serve];
    const account = (await rows<{ id: string }>(`SELECT id FROM ad_accounts ORDER BY id LIMIT 1`))[0]!.id;
    const stream = await fetch(`${second.url}/v1/events`, { headers: { 'x-api-key': key } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const started = await fetch(`${first.url}/v1/accounts/${account}/sync`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(started.status).toBe(202);
    let text = '';
    await until(async () => {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
      return /event: sync\.(progress|completed)/.test(text);
    }, 60_000);
    await reader.cancel();
    await until(async () => (await rows(`SELECT 1 FROM sync_runs WHERE status = 'running'`)).length === 0);
  }, 240_000);

  it('counts 120 reads a minute per key across the processes', async () => {
    const created = await cli(['key', 'create', '--workspace', workspaceId, '--mode', 'test']);
    const fresh = (JSON.parse(created.stdout) as { key: string }).key;
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) {
      const target = processes[i % 3] as Serve;
      statuses.push((await fetch(`${target.url}/v1/accounts`, { headers: { 'x-api-key': fresh } })).status);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    for (const target of processes) {
      const refused = await fetch(`${target.url}/v1/accounts`, { headers: { 'x-api-key': fresh } });
      expect(refused.status).toBe(429);
      // The spec's refusal: no headers, the wait in the message.
      const { error } = (await refused.json()) as { error: { type: string; message: string } };
      expect(error.type).toBe('rate_limit_error');
      expect(error.message).toMatch(/retry in \d+ seconds/);
    }
  }, 120_000);

  it("applies a key's new limit and its revocation on the next request on every process", async () => {
    const created = await cli(['key', 'create', '--workspace', workspaceId, '--mode', 'test']);
    const { key, apiKey } = JSON.parse(created.stdout) as { key: string; apiKey: { id: string } };
    const read = (target: Serve) => fetch(`${target.url}/v1/accounts`, { headers: { 'x-api-key': key } });
    // Each process has served the key before it changes.
    for (const target of processes) expect((await read(target)).status).toBe(200);
    expect((await cli(['key', 'limits', apiKey.id, '--reads', '5'])).code).toBe(0);
    // Three reads counted: each process now counts against 5, not its cached 120.
    const remaining: number[] = [];
    for (const target of processes.slice(0, 2)) {
      const res = await read(target);
      remaining.push(
        ((await res.json()) as { meta: { remaining_requests: number } }).meta.remaining_requests,
      );
    }
    expect(remaining).toEqual([1, 0]);
    expect((await read(processes[2] as Serve)).status).toBe(429);
    expect((await cli(['key', 'revoke', apiKey.id])).code).toBe(0);
    for (const target of processes) {
      const refused = await read(target);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: { type: string } }).error.type).toBe('key_revoked');
    }
  }, 120_000);

  it('runs a diagnostic job once, whichever process claims it', async () => {
    const [first] = processes as [Serve];
    const account = (await rows<{ id: string }>(`SELECT id FROM ad_accounts ORDER BY id LIMIT 1`))[0]!.id;
    const posted = await fetch(`${first.url}/v1/diagnostics`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ account_id: account }),
    });
    expect([200, 201, 202]).toContain(posted.status);
    const id = ((await posted.json()) as { data: { id: string } }).data.id;
    const lease = await until(async () => {
      const found = await rows<{ status: string; attempts: number }>(
        `SELECT status, attempts FROM job_leases WHERE kind = 'diagnostic' AND job_id = $1`,
        [id],
      );
      return found[0]?.status === 'done' ? found[0] : null;
    });
    expect(lease.attempts).toBe(1);
    const answers = await Promise.all(
      processes.map(async (p) =>
        (await fetch(`${p.url}/v1/diagnostics/${id}`, { headers: { 'x-api-key': key } })).json(),
      ),
    );
    for (const answer of answers)
      expect((answer as { data: { status: string } }).data.status).toBe('completed');
  }, 240_000);

  it('finishes the sync of a process killed with SIGKILL on another, with no row lost or duplicated', async () => {
    const account = (await rows<{ id: string }>(`SELECT id FROM ad_accounts ORDER BY id DESC LIMIT 1`))[0]!
      .id;
    // What the start-up's full sync stored: every count and sum must be the same after the takeover.
    const stored = await accountSnapshot(account);
    const { owner, victim } = await fullSyncMidway(account, processes[0] as Serve, processes, key);
    victim.child.kill('SIGKILL');
    await new Promise((resolve) => victim.child.once('exit', resolve));
    const killedAt = Date.now();
    const midway = await rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM insights_ad_daily WHERE account_id = $1`,
      [account],
    );
    expect(midway[0]!.n).toBeLessThan(Number(stored?.ad_days));
    // Another process takes the same run over once the lease runs out (30 s): the 60 s are
    // to that claim; finishing the sync then takes as long as the machine's load makes it.
    const lease = () => syncLease(account);
    await until(async () => ((await lease())?.attempts ?? 0) >= 2, 90_000);
    expect(Date.now() - killedAt).toBeLessThan(60_000);
    const finished = await until(async () => {
      const found = await lease();
      return found?.status === 'done' ? found : null;
    }, 180_000);
    expect(finished.attempts).toBe(2);
    expect(finished.owner).not.toBe(owner);
    const runs = await rows<{ kind: string; status: string }>(
      `SELECT kind, status FROM sync_runs WHERE account_id = $1 ORDER BY started_at DESC LIMIT 1`,
      [account],
    );
    expect(runs[0]).toEqual({ kind: 'full', status: 'completed' });
    expect(await accountSnapshot(account)).toEqual(stored);
  }, 300_000);

  it('takes over the sync of a command killed with SIGKILL: the command held its lease, a server goes on with the same run', async () => {
    const account = (await rows<{ id: string }>(`SELECT id FROM ad_accounts ORDER BY id LIMIT 1`))[0]!.id;
    const stored = await accountSnapshot(account);
    await pool.query(`UPDATE sync_runs SET status = 'failed' WHERE account_id = $1`, [account]);
    await pool.query(`DELETE FROM insights_ad_daily WHERE account_id = $1`, [account]);
    // `npm run cli -- sync` on the team database: the sync runs in the command, under its own lease.
    const command = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/index.ts',
        'sync',
        '--workspace',
        workspaceId,
        '--account',
        account,
        '--full',
        '--database-url',
        databaseUrl,
      ],
      { cwd: ROOT, env },
    );
    children.push(command);
    const owner = await until(async () => {
      const found = await rows<{ owner: string }>(
        `SELECT owner FROM job_leases WHERE kind = 'sync' AND status = 'running' AND exclusive_key = $1`,
        [account],
      );
      return found[0]?.owner ?? null;
    });
    expect(Number(owner.split(':')[1])).toBe(command.pid);
    const run = (
      await rows<{ id: string }>(`SELECT id FROM sync_runs WHERE account_id = $1 AND status = 'running'`, [
        account,
      ])
    )[0]!.id;
    command.kill('SIGKILL');
    await new Promise((resolve) =>
      command.exitCode !== null ? resolve(null) : command.once('exit', resolve),
    );
    // No serve process claimed it while the command renewed its lease; one takes it over once it has
    // run out (30 s), as the next attempt of the same run.
    const { claimedAfterMs } = await takenOver(account, { owner, run, stored });
    expect(claimedAfterMs).toBeLessThan(60_000);
  }, 300_000);

  it('hands the sync of a process stopped with SIGTERM to another at once, and the others keep serving', async () => {
    const alive = processes.filter((p) => p.child.exitCode === null && p.child.signalCode === null);
    expect(alive.length).toBeGreaterThanOrEqual(2);
    const account = (await rows<{ id: string }>(`SELECT id FROM ad_accounts ORDER BY id LIMIT 1`))[0]!.id;
    const stored = await accountSnapshot(account);
    const { owner, victim: leaving } = await fullSyncMidway(account, alive[0] as Serve, alive, key);
    const staying = alive.find((p) => p !== leaving) as Serve;
    const run = (
      await rows<{ id: string }>(`SELECT id FROM sync_runs WHERE account_id = $1 AND status = 'running'`, [
        account,
      ])
    )[0]!.id;
    const exited = new Promise<number | null>((resolve) => leaving.child.once('exit', resolve));
    leaving.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(leaving.stderr()).toContain('stopped cleanly');
    // Given back at once, not left for its lease (30 s) to run out: another process claims it at its
    // next poll and goes on with the same run.
    const { claimedAfterMs } = await takenOver(account, { owner, run, stored });
    expect(claimedAfterMs).toBeLessThan(15_000);
    const still = await fetch(`${staying.url}/v1/accounts`, { headers: { 'x-api-key': key } });
    expect(still.status).toBe(200);
  }, 300_000);
});
