// Every statement the API runs while serving each endpoint is explained on each engine: none may scan
// a whole table that grows with the data (campaigns, insights, jobs…). SQLite: EXPLAIN QUERY PLAN.
// PostgreSQL (a team server process): EXPLAIN (GENERIC_PLAN) with sequential scans, hash and merge
// joins switched off, so the planner takes keyed access wherever an index allows it (as it would on
// tables of millions of rows; on test-sized tables it rightly reads a few pages whole): a sequential
// scan, or a walk of a whole index, left in the plan means no index can serve the statement. This
// keeps every index the API needs honest on both engines, including ones added later for queries not
// written yet.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../store/open';
import {
  seedAccount,
  seedAd,
  seedAdSet,
  seedCampaign,
  seedDailyInsights,
  seedKey,
  seedWorkspace,
} from '../../test-support/api-fixtures';
import { statements as insightStatements } from '../insights/queries';
import { reconcileIssues } from '../issues/lifecycle';
import type { Clock } from '../clock';
import { numberedPlaceholders } from '../store/pg/sql';
import type { TeamCore } from '../team-core';
import { call, startTestApi, type TestApi } from '../../test-support/api-server';
// A scan of a large table is caught under any alias.
import { GROWING_TABLES, LARGE_TABLES } from '../../test-support/table-sizes';
import { ORDERED_WALKS, wholeReads, type PlanNode } from '../../test-support/plan-reads';

const NOW = '2026-03-10T12:00:00.000Z';
let t: TestApi;
const statements = new Set<string>();

/** Every statement text in a module's table of statements. */
const texts = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Object.values(value as object).flatMap(texts);

function capture(db: Db): void {
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    statements.add(sql);
    return prepare(sql);
  }) as Db['prepare'];
}

function isPartialIndex(db: Db, name: string): boolean {
  const row = db.prepare(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?`).get(name) as
    { sql: string | null } | undefined;
  return /\sWHERE\s/i.test(row?.sql ?? '');
}

/** The table each alias of a statement stands for (`FROM campaigns c`, `JOIN ad_sets AS s`). */
function aliasesOf(sql: string): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const m of sql.matchAll(/\b(?:FROM|JOIN)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?/gi)) {
    const table = m[1] ?? '';
    const alias = m[2];
    if (alias && !/^(ON|WHERE|JOIN|LEFT|INNER|CROSS|GROUP|ORDER|LIMIT|INDEXED|USING)$/i.test(alias))
      aliases.set(alias, table);
  }
  return aliases;
}

function fullScans(db: Db, sql: string): string[] {
  if (!/^\s*(SELECT|WITH|UPDATE|DELETE|INSERT)/i.test(sql)) return [];
  const plan = explain(db, sql);
  const aliases = aliasesOf(sql);
  const details = plan.map((row) => row.detail);
  // A derived table (a page chosen in a subquery) is scanned by its name: that is its few rows.
  const derived = new Set(details.flatMap((d) => /^(?:CO-ROUTINE|MATERIALIZE) (\w+)/.exec(d)?.[1] ?? []));
  return details.filter((detail) => {
    // SCAN is a pass over a whole table or a whole index; SEARCH is a keyed lookup. The plan names
    // a table by its alias in the statement (`SCAN c`): aliases of the large tables are resolved.
    const match = /^SCAN (\w+)/.exec(detail);
    if (match === null || derived.has(match[1] ?? '')) return false;
    const name = match[1] ?? '';
    const aliased = aliases.get(name);
    const table = aliased !== undefined && LARGE_TABLES.includes(aliased) ? aliased : name;
    if (!GROWING_TABLES.includes(table)) return false;
    const walked = /USING (?:COVERING )?INDEX (\w+)/.exec(detail)?.[1];
    if (walked !== undefined && ORDERED_WALKS.includes(walked) && /\bLIMIT\b/i.test(sql)) return false;
    // A partial index holds only the rows still to handle (unjudged syncs…), not the table's history.
    const index = /USING (?:COVERING )?INDEX (\w+)/.exec(detail)?.[1];
    return !(index !== undefined && isPartialIndex(db, index));
  });
}

/** EXPLAIN QUERY PLAN with every parameter bound to null (the plan does not depend on the values). */
function explain(db: Db, sql: string): Array<{ detail: string }> {
  const statement = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const named = [...new Set([...sql.matchAll(/[@:$]([A-Za-z_]\w*)/g)].map((m) => m[1] ?? ''))];
  const bag = named.length > 0 ? [Object.fromEntries(named.map((name) => [name, null]))] : [];
  for (let positional = 0; positional <= 64; positional++) {
    try {
      return statement.all(...Array<null>(positional).fill(null), ...bag) as Array<{ detail: string }>;
    } catch (error) {
      if (!/Too few parameter/.test((error as Error).message)) throw error;
    }
  }
  throw new Error(`could not bind the parameters of: ${sql}`);
}

/**
 * One account of three campaigns with ads and 69 days of insights, a second account without any (so
 * the portfolio can build one account's line alone), and a key.
 */
async function seedPlanWorld(db: Db, clock: Clock) {
  const { workspaceId } = seedWorkspace(db, { plan: 'agency' });
  const account = seedAccount(db, { workspaceId, mode: 'test' });
  seedAccount(db, { workspaceId, mode: 'test' });
  for (let c = 0; c < 3; c++) {
    const campaignId = seedCampaign(db, { accountId: account.id, name: `Campaign ${c}` });
    const adSetId = seedAdSet(db, { accountId: account.id, campaignId });
    seedAd(db, { accountId: account.id, campaignId, adSetId });
    seedDailyInsights(db, {
      accountId: account.id,
      campaignId,
      from: '2026-01-01',
      days: 69,
      row: (i) => ({
        spendMicros: 10_000_000 + i,
        impressions: 1000,
        clicks: 20,
        conversions: 2,
        revenueMicros: 30_000_000,
        reach: 800,
      }),
    });
  }
  const { key } = await seedKey(db, clock, { workspaceId, mode: 'test' });
  return { workspaceId, account, key };
}

/** Calls every endpoint (and the use cases and watcher passes behind the screens) once. */
async function exercise(t: TestApi, seeded: Awaited<ReturnType<typeof seedPlanWorld>>): Promise<void> {
  const { workspaceId, account, key } = seeded;
  const get = async (path: string) => {
    const res = await call(t.url, path, { key });
    expect(res.status, path).toBeLessThan(300);
    return res.body as { data: unknown };
  };
  const campaigns = (await get('/v1/campaigns?page_size=100')).data as Array<{ id: string }>;
  const campaignId = campaigns[0]!.id;
  await get('/v1/accounts');
  await get(`/v1/accounts/${account.id}`);
  await get(`/v1/accounts/${account.platformAccountId}`);
  await get(`/v1/campaigns?account_id=${account.id}&sort=-spend`);
  // Ads Manager ranges with a comparison (each range one query, per account window).
  await get(`/v1/campaigns?date_preset=maximum&compare=same_period_last_year&sort=-spend`);
  await get(`/v1/campaigns?date_start=2026-02-01&date_end=2026-02-28&compare=previous_period`);
  await get(`/v1/campaigns/${campaignId}?include=adSets,ads,diagnostics,insights&insightsDateRange=last_30d`);
  await get(`/v1/insights/summary?account_id=${account.id}&date_start=2026-02-01&date_end=2026-03-01`);
  await get(`/v1/insights/summary?campaign_ids=${campaignId}`);
  const diagnostic = await call(t.url, '/v1/diagnostics', {
    key,
    body: {
      account_id: account.id,
      campaign_id: campaignId,
      date_start: '2026-02-10',
      date_end: '2026-03-08',
    },
  });
  expect(diagnostic.status).toBeLessThan(300);
  await t.app.diagnostics.whenIdle();
  const diagnosticId = (diagnostic.body as { data: { id: string } }).data.id;
  await get(`/v1/diagnostics/${diagnosticId}`);
  await get(
    `/v1/diagnostics?account_id=${account.id}&risk_level=LOW&date_start=2026-02-01&date_end=2026-03-09`,
  );
  await get('/v1/campaigns');
  // The whole workspace's list by name (both directions), a deep page, and the status filter.
  await get('/v1/campaigns?sort=-name&page=2&page_size=1');
  // The next pages seek from the anchors the pages before left (both directions).
  await get('/v1/campaigns?sort=-name&page=3&page_size=1');
  await get('/v1/campaigns?page=2&page_size=1');
  await get('/v1/campaigns?page=3&page_size=1');
  await get('/v1/campaigns?status=ACTIVE');
  await get(`/v1/campaigns?account_id=${account.id}&status=ACTIVE`);
  const report = await call(t.url, '/v1/reports', {
    key,
    body: {
      account_id: account.id,
      title: 'Plan check',
      date_start: '2026-02-01',
      date_end: '2026-02-28',
      format: 'markdown',
    },
  });
  expect(report.status).toBeLessThan(300);
  await t.app.reports.whenIdle();
  await get(`/v1/reports?accountId=${account.id}&status=completed&format=markdown`);
  await get(`/v1/reports?campaignId=${campaignId}`);
  // Watching: issues with their lifecycle, schedules, the change history, and the watcher's own pass.
  await reconcileIssues(t.app.core, {
    workspaceId,
    accountId: account.id,
    diagnosticId,
    judgedCampaignIds: [campaignId],
    found: [
      {
        campaignId,
        type: 'PACING_ISSUE',
        entity: { id: campaignId, name: 'Campaign 0' },
        severity: 'HIGH',
        title: 'Overspending',
        description: 'twice the budget',
        evidence: {},
      },
    ],
  });
  await reconcileIssues(t.app.core, {
    workspaceId,
    accountId: account.id,
    diagnosticId,
    judgedCampaignIds: [campaignId],
    found: [],
  });
  const issues = (await get(`/v1/issues?account_id=${account.id}&state=open,resolved&min_severity=LOW`))
    .data as Array<{ id: string }>;
  await get(`/v1/issues/${issues[0]!.id}`);
  await get(`/v1/issues?campaign_id=${campaignId}`);
  // One state of every account, walked in the list's order (issues_list_order).
  await get('/v1/issues?state=resolved&min_severity=LOW');
  await get(`/v1/accounts/${account.id}/schedule`);
  await get(`/v1/campaigns/${campaignId}/changes`);
  // The portfolio and an account's overview (with an issue live), and a diagnostic's history reads.
  await get('/v1/portfolio');
  // One account's line moved: its line alone is built again (its own row and issues).
  await t.app.core.sql.run(`UPDATE ad_accounts SET name = 'Renamed' WHERE id = ?`, [account.id]);
  await get('/v1/portfolio');
  await get(`/v1/accounts/${account.id}/overview`);
  const ctx = { workspaceId, plan: 'agency' as const, userId: null, keyId: null, mode: 'all' as const };
  await t.app.use.diagnostics.history(ctx, { campaignId });
  await t.app.use.diagnostics.history(ctx, { accountId: account.id });
  await t.app.use.diagnostics.changes(ctx, diagnosticId);
  await t.app.use.diagnostics.evidence(ctx, diagnosticId);
  // A month-old automatic diagnosis: the watcher's pass thins it (every statement of the thinning).
  await t.app.core.sql.run(
    `INSERT INTO diagnostics (id, workspace_id, account_id, status, date_from, date_to, created_at, completed_at,
       trigger) VALUES ('diag_old', ?, ?, 'completed', '2026-01-10', '2026-02-06', ?, ?, 'automatic')`,
    [workspaceId, account.id, '2026-02-07T10:00:00.000Z', '2026-02-07T10:01:00.000Z'],
  );
  await t.app.watcher.tick();
  await t.app.watcher.judgeNewData();
}

describe('query plans on sqlite: every statement the API ran', () => {
  beforeAll(async () => {
    const started = await startTestApi({ now: NOW, seed: seedPlanWorld });
    t = started;
    capture(t.core.db);
    await exercise(t, started.seeded);
    // Every insights statement, run by these endpoints or not (the screens' per-window sums among them).
    for (const text of texts(insightStatements(t.core.sql))) statements.add(text);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('captured the statements of every endpoint', () => {
    expect(statements.size).toBeGreaterThan(20);
  });

  it('never scans a growing table whole', () => {
    const offenders = [...statements].flatMap((sql) =>
      fullScans(t.core.db, sql).map(
        (detail) => `${detail}\n    in: ${sql.replace(/\s+/g, ' ').slice(0, 240)}`,
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('sums every campaign over per-account windows with one keyed search of the covering index', () => {
    const windowed = [...statements].find((sql) => sql.includes('FROM w JOIN insights_campaign_daily i'));
    expect(windowed).toBeDefined();
    const plan = explain(t.core.db, windowed as string).map((row) => row.detail);
    expect(
      plan.some((d) => /SEARCH i USING COVERING INDEX insights_campaign_daily_account_date/.test(d)),
    ).toBe(true);
  });

  it("reads chosen campaigns by their own keys, never every day of their account's campaigns", () => {
    const selection = insightStatements(t.core.sql).campaigns;
    for (const text of [selection.totals, selection.daily, selection.perCampaign]) {
      const plan = explain(t.core.db, text).map((row) => row.detail);
      expect(
        plan.some((d) => /SEARCH insights_campaign_daily USING PRIMARY KEY/.test(d)),
        plan.join('\n'),
      ).toBe(true);
    }
  });
});

describe('query plans on postgres: every statement the API ran', () => {
  let team: TestApi;
  const ran = new Set<string>();
  const query = pg.Client.prototype.query;

  beforeAll(async () => {
    const started = await startTestApi({ now: NOW, engine: 'postgres', seed: seedPlanWorld });
    team = started;
    // Every statement any pooled connection runs, as the driver receives it ($1 placeholders).
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | null)?.text;
      if (text) ran.add(text);
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    await exercise(team, started.seeded);
    for (const text of texts(insightStatements(team.core.sql))) ran.add(numberedPlaceholders(text));
  });

  afterAll(async () => {
    pg.Client.prototype.query = query;
    await team?.close();
  });

  it('captured the statements of every endpoint', () => {
    expect([...ran].filter((sql) => /^\s*(SELECT|WITH)/i.test(sql)).length).toBeGreaterThan(20);
  });

  it('never scans a growing table sequentially, even with sequential scans made the last resort', async () => {
    const client = await (team.core as TeamCore).pool.connect();
    const offenders: string[] = [];
    try {
      // Keyed access wherever an index allows it: what a table of millions of rows would get, and what
      // a few test rows would not (the planner rightly reads a small table whole).
      for (const setting of ['enable_seqscan', 'enable_hashjoin', 'enable_mergejoin'])
        await client.query(`SET ${setting} = off`);
      const partial = new Set(
        (
          await client.query<{ indexname: string }>(
            `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexdef LIKE '% WHERE %'`,
          )
        ).rows.map((row) => row.indexname),
      );
      const seqScans = async (sql: string): Promise<string[]> => {
        const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `EXPLAIN (GENERIC_PLAN, FORMAT JSON) ${sql}`,
        );
        return wholeReads(rows[0]!['QUERY PLAN'][0].Plan, {
          tables: GROWING_TABLES,
          partial,
          limited: /\bLIMIT\b/i.test(sql),
        });
      };
      // The control: a statement no index can serve is caught, so a clean result below means something.
      expect(await seqScans(`SELECT id FROM campaigns WHERE name LIKE $1`)).toHaveLength(1);
      expect(await seqScans(`SELECT id FROM campaigns WHERE account_id = $1`)).toEqual([]);
      let explained = 0;
      for (const sql of ran) {
        if (!/^\s*(SELECT|WITH|UPDATE|DELETE|INSERT)/i.test(sql)) continue;
        explained += 1;
        for (const line of await seqScans(sql))
          offenders.push(`${line}\n    in: ${sql.replace(/\s+/g, ' ').slice(0, 240)}`);
      }
      expect(explained).toBeGreaterThan(40);
    } finally {
      client.release();
    }
    expect(offenders).toEqual([]);
  });
});
