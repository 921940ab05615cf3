// Agency scale (issue 18 item 7), opt-in: `npm run bench -- scale`. Generates an agency (500 accounts,
// 50,000 campaigns, 200,000 ad sets, two years of campaign days ≈ 36.5 M rows, 90 days of ad-set days
// = 18 M rows) into a real store file and a PostgreSQL database at once, starts server processes on
// each as `serve` does, and times the /v1 reads one at a time and with 8 concurrent clients, plus an
// account diagnostic's job and the servers' peak RSS. ADLENS_SCALE=0.1 shrinks the account count
// (development); the generator is engine-neutral and the loader is per engine (bench/scale/load-*.ts).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { figure, percentile, type BenchFigure, type BenchSuite } from './harness';
import { startTestPostgres, writeTeamKeyFile } from '../src/test-support/postgres';
import { connectPg } from '../src/core/store/pg/connect';
import { migratePg } from '../src/core/store/pg/migrate';
import { account, agencyShape, datesEnding, type AgencyShape } from './scale/agency';
import { loadPostgres } from './scale/load-pg';
import { checkKeptPlans } from './scale/kept-plans';
import type { LoadedAgency } from './scale/load-sqlite';
import { concurrent, sequential, type Read } from './scale/reads';

const SCALE = Number(process.env.ADLENS_SCALE ?? 1);
const SAMPLES = Number(process.env.ADLENS_SCALE_SAMPLES ?? 40);
const CLIENTS = 8;
const CONCURRENT_SECONDS = Number(process.env.ADLENS_SCALE_SECONDS ?? 4);
const READ_TARGET_MS = 50;
const RSS_TARGET_MB = 400;
const SUITE = 'scale';
/**
 * `ADLENS_SCALE_KEEP=DIR` keeps the loaded stores in DIR (the SQLite file, the PostgreSQL server's
 * data, the key file and what was loaded) and reads them again on the next run with the same scale
 * instead of loading: the reads can be measured again in minutes, not after a 5-minute load.
 */
const KEEP = process.env.ADLENS_SCALE_KEEP;
/** Engines to load: `ADLENS_SCALE_ENGINES=sqlite` skips PostgreSQL. */
const ENGINES = (process.env.ADLENS_SCALE_ENGINES ?? 'sqlite,postgres').split(',');

function log(line: string): void {
  console.log(line);
}

/** A server process's peak RSS, and the largest V8 heap and outside-heap memory it sampled (MB). */
interface ServerMemory {
  maxRssMb: number;
  heapTotalMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  /** A team process's statements run with kept plans (`keptPlan`). */
  keptStatements?: string[];
}

const memoryNote = (m: ServerMemory) =>
  `${m.maxRssMb.toFixed(0)} MB (V8 heap at most ${m.heapTotalMb.toFixed(0)} MB; external ${m.externalMb.toFixed(0)} MB, of which array buffers ${m.arrayBuffersMb.toFixed(0)})`;

interface ServerProcess {
  url: string;
  /** Closes the server's stdin; resolves with its peak memory once it has stopped. */
  stop(): Promise<ServerMemory>;
}

/** A server process on a data directory, or (a postgres:// URL) one process of a team server. */
async function startServer(store: string, env: NodeJS.ProcessEnv = process.env): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    [
      // Node flags for the servers only (for example a heap cap: ADLENS_SCALE_SERVER_FLAGS=--max-old-space-size=192).
      ...(process.env.ADLENS_SCALE_SERVER_FLAGS?.split(' ').filter(Boolean) ?? []),
      '--import',
      'tsx',
      new URL('./scale/server.ts', import.meta.url).pathname,
      store,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'], env },
  );
  const lines = createInterface({ input: child.stdout });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`scale server exited (${code})`)));
    });
  const { url } = JSON.parse(await next()) as { url: string };
  return {
    url,
    stop: async () => {
      const rss = next();
      child.stdin.end();
      const memory = JSON.parse(await rss) as ServerMemory;
      await new Promise<void>((resolve) =>
        child.exitCode !== null ? resolve() : child.once('exit', () => resolve()),
      );
      return memory;
    },
  };
}

async function api<T>(
  url: string,
  key: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** POST an account diagnostic, poll until it is finished; its ID and the job's wall time. */
async function accountDiagnostic(
  url: string,
  key: string,
  accountId: string,
): Promise<{ id: string; ms: number }> {
  const started = performance.now();
  const created = await api<{ data: { id: string } }>(url, key, '/v1/diagnostics', { account_id: accountId });
  if (created.status !== 202 && created.status !== 201 && created.status !== 200)
    throw new Error(`POST /v1/diagnostics: ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`);
  const id = created.body.data.id;
  for (;;) {
    const got = await api<{ data: { status: string } }>(url, key, `/v1/diagnostics/${id}`);
    if (got.body.data.status !== 'pending' && got.body.data.status !== 'running')
      return { id, ms: performance.now() - started };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The SQLite load in its own process (./scale/load-sqlite-process.ts), beside the PostgreSQL one. */
async function loadSqliteBeside(dataDir: string, shape: AgencyShape): Promise<LoadedAgency> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      new URL('./scale/load-sqlite-process.ts', import.meta.url).pathname,
      dataDir,
      JSON.stringify(shape),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the SQLite load exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '') as LoadedAgency;
}

const suite: BenchSuite = {
  name: SUITE,
  optIn: true,
  async run(): Promise<BenchFigure[]> {
    const kept = KEEP ? readKept(KEEP) : null;
    // A kept agency is read with the dates it was generated for.
    const today = kept?.shape.today ?? new Date().toISOString().slice(0, 10);
    const shape = kept?.shape ?? agencyShape(SCALE, today);
    const dataDir = KEEP ? join(KEEP, 'sqlite') : mkdtempSync(join(tmpdir(), 'adlens-scale-'));
    const figures: BenchFigure[] = [];
    let postgres: LoadedPostgres | null = null;
    try {
      let agency: LoadedAgency;
      if (kept) {
        log(`  reading the agency kept in ${KEEP} (loaded ${kept.loadedAt}; not loaded again)`);
        agency = kept.sqlite;
        postgres = kept.postgres ? await startKeptPostgres(kept.postgres) : null;
      } else {
        if (KEEP) {
          rmSync(KEEP, { recursive: true, force: true });
          mkdirSync(dataDir, { recursive: true });
        }
        log(
          `  generating ${shape.accounts} accounts × ${shape.campaignsPerAccount} campaigns into ${dataDir}`,
        );
        // Both engines load at once (each is mostly one core's work); the reads run one engine at a time.
        const sqliteLoad = loadSqliteBeside(dataDir, shape);
        sqliteLoad.catch(() => {});
        postgres = ENGINES.includes('postgres') ? await loadPostgresAgency(shape) : null;
        agency = await sqliteLoad;
        if (KEEP) writeKept(KEEP, shape, agency, postgres);
      }
      const { rows } = agency;
      const keptNote = kept ? `; kept from the load of ${kept.loadedAt}` : '';
      figures.push(
        figure({
          suite: SUITE,
          name: 'load (bulk: prepared statements, daily tables bare, indexes and rollup after)',
          value: agency.loadMs / 1000,
          unit: 's',
          note: `${rows.campaigns.toLocaleString('en-US')} campaigns, ${rows.adSets.toLocaleString('en-US')} ad sets, ${rows.campaignDays.toLocaleString('en-US')} campaign days, ${rows.adSetDays.toLocaleString('en-US')} ad-set days, ${rows.syncRuns.toLocaleString('en-US')} sync runs, ${rows.diagnoses.toLocaleString('en-US')} diagnoses, ${rows.resolvedIssues.toLocaleString('en-US')} resolved issues; ${Math.round(rows.campaignDays / (agency.loadMs / 1000)).toLocaleString('en-US')} campaign days/s${postgres ? ', beside the PostgreSQL load' : ''}${keptNote}`,
        }),
        figure({ suite: SUITE, name: 'size on disk', value: agency.bytesOnDisk / 2 ** 30, unit: 'GiB' }),
      );
      // Opening the store checks its integrity (every page) unless the record of a clean close
      // vouches for it (src/core/store/clean-close.ts): the loader timed that check, then closed the
      // store cleanly, so the server's start skips it.
      const starting = performance.now();
      const server = await startServer(dataDir);
      const startMs = performance.now() - starting;
      if (agency.integrityCheckMs !== undefined) {
        figures.push(
          figure({
            suite: SUITE,
            name: 'integrity check of the whole store (what a first open runs)',
            value: agency.integrityCheckMs / 1000,
            unit: 's',
            note: `PRAGMA quick_check of ${(agency.bytesOnDisk / 2 ** 30).toFixed(1)} GiB just after the load, beside the PostgreSQL load when both run (a file out of the page cache takes longer)${keptNote}`,
          }),
        );
      }
      figures.push(
        figure({
          suite: SUITE,
          name: 'serve start after a clean close (the check is vouched for)',
          value: startMs / 1000,
          unit: 's',
          note: 'process start to ready line',
          ...(agency.integrityCheckMs !== undefined && !kept
            ? { baseline: { name: 'the integrity check', value: agency.integrityCheckMs / 1000 } }
            : {}),
        }),
      );
      let memory: ServerMemory | null = null;
      try {
        figures.push(...(await measureReads([server.url], agency, '', today)));
      } finally {
        memory = await server.stop();
      }
      figures.push(
        figure({
          suite: SUITE,
          name: 'server process peak RSS',
          value: memory.maxRssMb,
          unit: 'MB',
          target: { op: '<=', value: RSS_TARGET_MB, of: 'value' },
          note: memoryNote(memory),
        }),
      );
      // The SQLite file goes before the PostgreSQL reads: at full size both would hold 35 GB of disk.
      if (!KEEP) rmSync(dataDir, { recursive: true, force: true });
      if (postgres) figures.push(...(await postgresFigures(postgres, today, keptNote)));
    } finally {
      if (!KEEP) rmSync(dataDir, { recursive: true, force: true });
      await postgres?.stop();
    }
    return figures;
  },
};

/** What `ADLENS_SCALE_KEEP` keeps beside the stores: the shape and what each load returned. */
interface Kept {
  scale: number;
  /** The agency's generation: a store loaded by an older walk (before sync and diagnosis history) is loaded again. */
  generation?: number;
  shape: AgencyShape;
  loadedAt: string;
  sqlite: LoadedAgency;
  postgres: { agency: LoadedAgency; database: string } | null;
}

function readKept(dir: string): Kept | null {
  const file = join(dir, 'loaded.json');
  if (!existsSync(file)) return null;
  const kept = JSON.parse(readFileSync(file, 'utf8')) as Kept;
  const wantsPostgres = ENGINES.includes('postgres');
  if (kept.scale !== SCALE || kept.generation !== GENERATION || (kept.postgres !== null) !== wantsPostgres) {
    log(
      `  ${dir} holds another agency (scale ${kept.scale}, generation ${kept.generation ?? 1}): loading again`,
    );
    return null;
  }
  return kept;
}

function writeKept(
  dir: string,
  shape: AgencyShape,
  sqlite: LoadedAgency,
  postgres: LoadedPostgres | null,
): void {
  const kept: Kept = {
    scale: SCALE,
    generation: GENERATION,
    shape,
    loadedAt: new Date().toISOString(),
    sqlite,
    postgres: postgres ? { agency: postgres.agency, database: KEPT_DATABASE } : null,
  };
  // Written last: a load cut short leaves no loaded.json, and the next run loads again.
  writeFileSync(join(dir, 'loaded.json'), `${JSON.stringify(kept)}\n`);
}

const KEPT_DATABASE = 'adlens_scale';
/**
 * 2: accounts carry a month of sync runs and 90 days of automatic diagnoses (walk.ts history);
 * 3: and 200 resolved issues each.
 */
const GENERATION = 3;

/** The kept PostgreSQL server started again on its data, with its key file. */
async function startKeptPostgres(kept: NonNullable<Kept['postgres']>): Promise<LoadedPostgres> {
  const dir = KEEP as string;
  const server = await startTestPostgres({ keepIn: join(dir, 'postgres') });
  const { url } = await server.namedDatabase(kept.database);
  return { agency: kept.agency, databaseUrl: url, keyDir: dir, stop: () => server.stop() };
}

/**
 * Times every read of item 7 against the server processes at `urls` (one-at-a-time requests go to
 * each in turn; the 8 clients are shared out among them), and an account diagnostic's job.
 */
async function measureReads(
  urls: string[],
  agency: LoadedAgency,
  label: string,
  today: string,
): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  const { rows } = agency;
  const key = agency.key;
  const url = urls[0] as string;
  const accounts = agency.accountIds;
  // Reads cycle through 8 accounts spread over the agency (different currencies and zones).
  const spread = Array.from({ length: 8 }, (_, i) => Math.floor((i * accounts.length) / 8));
  const platformIds = spread.map((i) => account(i).platformAccountId);
  const total = rows.campaigns;
  // Deep pages: around 80% of the list (page 2000 of 2500 at full size).
  const deepPage = Math.max(2, Math.floor((total / 20) * 0.8));
  const deepPages = [deepPage, Math.max(2, deepPage - 7), Math.max(2, Math.floor(deepPage * 0.9))];
  const last90 = datesEnding(today, 91);
  const from = last90[0] as string;
  const to = last90[89] as string;
  // Account diagnostics: the job (POST, then poll) on three accounts; the read is a GET of one.
  const jobs: number[] = [];
  const diagnosticIds: string[] = [];
  for (const platformId of platformIds.slice(0, 3)) {
    const job = await accountDiagnostic(url, key, platformId);
    jobs.push(job.ms);
    diagnosticIds.push(job.id);
  }
  const reads: Read[] = [
    {
      name: 'GET /v1/accounts',
      paths: ['/v1/accounts', '/v1/accounts?page=2', '/v1/accounts?page_size=100'],
    },
    { name: 'GET /v1/campaigns (page 1)', paths: ['/v1/campaigns'] },
    {
      name: `GET /v1/campaigns?page=${deepPage} (deep page)`,
      paths: deepPages.map((p) => `/v1/campaigns?page=${p}`),
    },
    {
      name: 'GET /v1/campaigns?account_id=…&sort=-spend (page 1 and 4)',
      paths: platformIds.flatMap((id) => [
        `/v1/campaigns?account_id=${id}&sort=-spend`,
        `/v1/campaigns?account_id=${id}&sort=-spend&page=4`,
      ]),
    },
    {
      name: 'GET /v1/campaigns/{id}?include=adSets,insights (lifetime: 730 days)',
      paths: agency.sampleCampaignIds
        .filter((_, i) => i % 13 === 0)
        .slice(0, 12)
        .map((id) => `/v1/campaigns/${id}?include=adSets,insights&insightsDateRange=lifetime`),
    },
    {
      name: 'GET /v1/insights/summary, one account, 90 days',
      paths: platformIds.map(
        (id) => `/v1/insights/summary?account_id=${id}&date_start=${from}&date_end=${to}`,
      ),
    },
    {
      name: 'GET /v1/insights/summary, whole workspace, 90 days',
      paths: [`/v1/insights/summary?date_start=${from}&date_end=${to}`],
    },
    { name: 'GET /v1/portfolio', paths: ['/v1/portfolio'] },
    {
      name: "GET /v1/issues?state=resolved (page 1 of every account's, 200 an account)",
      paths: ['/v1/issues?state=resolved'],
    },
    {
      name: "GET /v1/diagnostics?account_id=… (page 1 of an account's 159 diagnoses)",
      paths: platformIds.map((id) => `/v1/diagnostics?account_id=${id}`),
    },
    {
      name: 'GET /v1/diagnostics/{id} (stored account diagnostic)',
      paths: diagnosticIds.map((id) => `/v1/diagnostics/${id}`),
    },
  ];
  for (const read of reads) {
    const one = await sequential(urls, key, read, SAMPLES);
    const many = await concurrent(urls, key, read, CLIENTS, CONCURRENT_SECONDS, one.p50);
    log(
      `  ${label}${read.name}: p50 ${one.p50.toFixed(1)} / p99 ${one.p99.toFixed(1)} ms; 8 clients p50 ${many.p50} / p99 ${many.p99} ms`,
    );
    const refused = (t: { non200: number }) => (t.non200 > 0 ? `; ${t.non200} answers not 200` : '');
    figures.push(
      figure({
        suite: SUITE,
        name: `${label}${read.name}: p50`,
        value: one.p50,
        unit: 'ms',
        note: `${one.samples} one at a time${refused(one)}`,
      }),
      figure({
        suite: SUITE,
        name: `${label}${read.name}: p99`,
        value: one.p99,
        unit: 'ms',
        target: { op: '<=', value: READ_TARGET_MS, of: 'value' },
        ...(one.non200 > 0 ? { note: refused(one).slice(2) } : {}),
      }),
      figure({
        suite: SUITE,
        name: `${label}${read.name}, 8 clients: p50`,
        value: many.p50,
        unit: 'ms',
        note: `${many.samples} requests${refused(many)}`,
      }),
      figure({
        suite: SUITE,
        name: `${label}${read.name}, 8 clients: p99`,
        value: many.p99,
        unit: 'ms',
        target: { op: '<=', value: READ_TARGET_MS, of: 'value' },
        ...(many.non200 > 0 ? { note: refused(many).slice(2) } : {}),
      }),
    );
  }
  figures.push(
    figure({
      suite: SUITE,
      name: `${label}account diagnostic job (POST, then poll to completed), 100 campaigns: median`,
      value: percentile(jobs, 50),
      unit: 'ms',
      target: { op: '<=', value: 1000, of: 'value' },
      note: `${jobs.map((ms) => ms.toFixed(0)).join(', ')} ms; a job, not a read: the 50 ms target is the stored diagnostic's GET`,
    }),
  );
  return figures;
}

interface LoadedPostgres {
  agency: LoadedAgency;
  databaseUrl: string;
  keyDir: string;
  stop(): Promise<void>;
}

/** The same agency loaded into a PostgreSQL server the bench starts from npm, as the tests do. */
async function loadPostgresAgency(shape: AgencyShape): Promise<LoadedPostgres> {
  const server = await startTestPostgres(KEEP ? { keepIn: join(KEEP, 'postgres') } : {});
  const keyDir = KEEP ?? mkdtempSync(join(tmpdir(), 'adlens-scale-key-'));
  const stop = async () => {
    await server.stop();
    if (!KEEP) rmSync(keyDir, { recursive: true, force: true });
  };
  try {
    const databaseUrl = KEEP
      ? (await server.namedDatabase(KEPT_DATABASE)).url
      : await server.createDatabase();
    const pool = connectPg(databaseUrl, { max: 2 });
    try {
      await migratePg(pool);
      log(`  loading the same agency into PostgreSQL`);
      const agency = await loadPostgres(pool, shape, log);
      // Fresh statistics, as autovacuum would have them on a database loaded hours ago; and the
      // campaign tables vacuumed as it would have them too, so their index-only scans (a deep page walks
      // 40,000 entries of campaigns_name_order) need no heap visit per entry. The daily tables are
      // left: vacuuming 16 GiB would add minutes to the bench, and their reads are keyed ranges.
      await pool.query('VACUUM (ANALYZE) ad_accounts, campaigns, ad_sets, ads');
      await pool.query('ANALYZE');
      return { agency, databaseUrl, keyDir, stop };
    } finally {
      await pool.end();
    }
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The loaded PostgreSQL agency: load time and size on disk, then the same reads against one
 * `serve --database-url` process and against two on the same database (requests shared out among
 * them), and each process's peak RSS.
 */
async function postgresFigures(
  loaded: LoadedPostgres,
  today: string,
  keptNote: string,
): Promise<BenchFigure[]> {
  const { agency, databaseUrl, keyDir } = loaded;
  const figures = [
    figure({
      suite: SUITE,
      name: 'PostgreSQL: load (COPY per table and account, daily tables bare, indexes, keys and rollup after)',
      value: agency.loadMs / 1000,
      unit: 's',
      note: `${Math.round(agency.rows.campaignDays / (agency.loadMs / 1000)).toLocaleString('en-US')} campaign days/s, beside the SQLite load${keptNote}`,
    }),
    figure({
      suite: SUITE,
      name: 'PostgreSQL: size on disk',
      value: agency.bytesOnDisk / 2 ** 30,
      unit: 'GiB',
    }),
  ];
  // A kept database keeps its key file: the team host would refuse another key.
  const keyFile = existsSync(join(keyDir, 'adlens.key'))
    ? join(keyDir, 'adlens.key')
    : writeTeamKeyFile(keyDir);
  const env = { ...process.env, ADLENS_SECRET_KEY_FILE: keyFile };
  const kept = new Set<string>();
  for (const processes of [1, 2]) {
    const servers: ServerProcess[] = [];
    try {
      for (let i = 0; i < processes; i++) servers.push(await startServer(databaseUrl, env));
      const label = `PostgreSQL, ${processes} serve process${processes > 1 ? 'es' : ''}: `;
      log(`  ${label}reads`);
      figures.push(
        ...(await measureReads(
          servers.map((s) => s.url),
          agency,
          label,
          today,
        )),
      );
    } finally {
      const peaks: ServerMemory[] = [];
      for (const s of servers) peaks.push(await s.stop());
      for (const text of peaks.flatMap((m) => m.keptStatements ?? [])) kept.add(text);
      if (peaks.length > 0)
        figures.push(
          figure({
            suite: SUITE,
            name: `PostgreSQL, ${processes} serve process${processes > 1 ? 'es' : ''}: peak RSS (largest)`,
            value: Math.max(...peaks.map((m) => m.maxRssMb)),
            unit: 'MB',
            target: { op: '<=', value: RSS_TARGET_MB, of: 'value' },
            note: peaks.map(memoryNote).join('; '),
          }),
        );
    }
  }
  const check = await checkKeptPlans(databaseUrl, [...kept]);
  for (const line of check.offenders) log(`  kept plan reading a large table whole: ${line}`);
  figures.push(
    figure({
      suite: SUITE,
      name: 'PostgreSQL: kept plans reading a large table whole',
      value: check.offenders.length,
      unit: 'statements',
      target: { op: '<=', value: 0, of: 'value' },
      note: `each of the ${check.explained} statements the reads ran with kept plans, explained with its generic plan at full size`,
    }),
  );
  return figures;
}

export default suite;
