// The portfolio builds again only the lines whose inputs moved (migration 20, pg 0016): on both
// engines, every kind of write a line shows, made by whoever writes (plain SQL here, the issue
// tracker's own reconciliation for issues), shows on the next read, and so do the day and the token
// warning moving with the clock; a line whose counters did not move is handed back as it was built.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../app';
import type { Clock } from '../clock';
import { createCore } from '../core';
import type { RequestContext } from '../identity/access';
import { createUser } from '../identity/users';
import { createWorkspace } from '../identity/workspaces';
import { reconcileIssues } from '../issues/lifecycle';
import { openTeamCore } from '../team-core';
import { tokenWarning, tokenWarningChangesAt } from '../sync/token-expiry';
import { seedAccountRows } from '../../test-support/ad-rows';
import { ENGINES, type Engine } from '../../test-support/engines';
import { postgresPerFile } from '../../test-support/postgres-per-file';
import { writeTeamKeyFile } from '../../test-support/postgres';
import type { PortfolioRow } from '../../shared/api/portfolio';

const postgres = postgresPerFile();
const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

// Tuesday 10 March 2026, noon UTC.
const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const DAY = 24 * 3600 * 1000;

interface World {
  app: App;
  ctx: RequestContext;
  clock: Clock & { at: number };
  line(accountId: string): Promise<PortfolioRow>;
  run(text: string, params?: unknown[]): Promise<void>;
}

async function world(engine: Engine): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), 'adlens-lines-'));
  folders.push(dir);
  const clock = { at: NOW, now: () => new Date(clock.at) };
  const core =
    engine === 'sqlite'
      ? createCore({ dataDir: dir, clock })
      : await openTeamCore({
          databaseUrl: await postgres.createDatabase(),
          clock,
          env: { ADLENS_SECRET_KEY_FILE: writeTeamKeyFile(dir) },
        });
  const app = createApp(core, { renderReportsInWorker: false });
  const workspace = await createWorkspace(core.sql, { name: 'Lines', plan: 'agency' });
  const owner = await createUser(core.sql, {
    workspaceId: workspace.id,
    email: 'o@lines.test',
    role: 'owner',
  });
  const ctx = await app.use.identity.contextForUser(owner.id);
  const run = async (text: string, params: unknown[] = []) => {
    await core.sql.run(text, params as never);
  };
  await seedAccountRows(core.sql, workspace.id, { id: 'acc_1', name: 'Acme', timezone: 'America/New_York' }, [
    { id: 'cmp_1', name: 'Alpha' },
  ]);
  await seedAccountRows(core.sql, workspace.id, { id: 'acc_2', name: 'Bolt' }, [
    { id: 'cmp_2', name: 'Beta' },
  ]);
  for (const [account, campaign] of [
    ['acc_1', 'cmp_1'],
    ['acc_2', 'cmp_2'],
  ] as const)
    for (let day = 1; day <= 9; day++)
      await run(
        `INSERT INTO insights_campaign_daily (campaign_id, date, account_id, spend_micros, impressions, clicks,
           conversions, revenue_micros, reach, link_clicks) VALUES (?, ?, ?, 10000000, 1000, 20, 1, 0, 900, 10)`,
        [campaign, `2026-03-0${day}`, account],
      );
  return {
    app,
    ctx,
    clock,
    run,
    async line(accountId) {
      const line = (await app.use.portfolio.home(ctx)).items.find((l) => l.accountId === accountId);
      if (!line) throw new Error(`no line for ${accountId}`);
      return line;
    },
  };
}

/** The issue tracker's reconciliation of one finding on acc_1 (or of none: it resolves). */
async function finding(w: World, severity: 'HIGH' | 'CRITICAL' | null): Promise<void> {
  await reconcileIssues(w.app.core, {
    workspaceId: w.ctx.workspaceId,
    accountId: 'acc_1',
    diagnosticId: 'diag_lines0000000000',
    judgedCampaignIds: ['cmp_1'],
    found: severity
      ? [
          {
            campaignId: 'cmp_1',
            type: 'CPA_DEGRADATION',
            entity: { id: 'cmp_1', name: 'Alpha' },
            severity,
            title: 'Cost per result up',
            description: 'seeded',
            evidence: {},
          },
        ]
      : [],
  });
}

describe.each(ENGINES)('portfolio lines on %s', (engine) => {
  it('shows every write a line is built from on the next read, and the clock moving its days and warning', async () => {
    const w = await world(engine);
    try {
      const other = await w.line('acc_2');
      expect((await w.line('acc_1')).spendThisMonth).toBe(90);

      // Each write, then what acc_1's next line shows; acc_2's line stays the very same object.
      const steps: Array<[string, () => Promise<void>, (line: PortfolioRow) => void]> = [
        [
          'a rename',
          () => w.run(`UPDATE ad_accounts SET name = 'Acme Renamed' WHERE id = 'acc_1'`),
          (l) => expect(l.name).toBe('Acme Renamed'),
        ],
        [
          'a spend cap and what was spent',
          () =>
            w.run(
              `UPDATE ad_accounts SET spend_cap_micros = 500000000, amount_spent_micros = 200000000 WHERE id = 'acc_1'`,
            ),
          (l) => expect(l.spendCap).toMatchObject({ cap: 500, spent: 200, remaining: 300 }),
        ],
        [
          'a disabled account',
          () => w.run(`UPDATE ad_accounts SET status = 'disabled', disable_reason = 1 WHERE id = 'acc_1'`),
          (l) => expect(l.blocked).toMatch(/^account disabled/),
        ],
        [
          'the account active again',
          () => w.run(`UPDATE ad_accounts SET status = 'active', disable_reason = 0 WHERE id = 'acc_1'`),
          (l) => expect(l.blocked).toBeNull(),
        ],
        [
          "the connection's token expiry",
          () =>
            w.run(`UPDATE platform_connections SET token_expires_at = ? WHERE id = 'conn_acc_1'`, [
              new Date(NOW + 2.5 * DAY).toISOString(),
            ]),
          (l) => expect(l.tokenWarning).toMatch(/expires in 3 days/),
        ],
        [
          'a failed sync run recorded',
          () =>
            w.run(
              `INSERT INTO sync_runs (id, account_id, kind, status, error, started_at, finished_at)
               VALUES ('run_1', 'acc_1', 'incremental', 'failed', '{"type":"platform_error","message":"boom"}', ?, ?)`,
              [new Date(NOW - 3600_000).toISOString(), new Date(NOW - 3000_000).toISOString()],
            ),
          (l) => expect(l.syncError).toBe('boom'),
        ],
        [
          "the newest run's error rewritten",
          () =>
            w.run(
              `UPDATE sync_runs SET error = '{"type":"platform_error","message":"bang"}' WHERE id = 'run_1'`,
            ),
          (l) => expect(l.syncError).toBe('bang'),
        ],
        [
          "the newest run's status",
          () => w.run(`UPDATE sync_runs SET status = 'completed' WHERE id = 'run_1'`),
          (l) => expect(l.syncError).toBeNull(),
        ],
        [
          'the newest run failed again, then deleted',
          async () => {
            await w.run(`UPDATE sync_runs SET status = 'failed' WHERE id = 'run_1'`);
            expect((await w.line('acc_1')).syncError).toBe('bang');
            await w.run(`DELETE FROM sync_runs WHERE id = 'run_1'`);
          },
          (l) => expect(l.syncError).toBeNull(),
        ],
        [
          'an issue opened',
          () => finding(w, 'HIGH'),
          (l) => {
            expect(l.issues).toEqual({ CRITICAL: 0, HIGH: 1, MEDIUM: 0, LOW: 0 });
            expect(l.moneyAtRisk).toBe(60); // cmp_1's last 7 days (the 4th to the 9th)
          },
        ],
        [
          "an issue's severity",
          () => finding(w, 'CRITICAL'),
          (l) => expect(l.issues).toEqual({ CRITICAL: 1, HIGH: 0, MEDIUM: 0, LOW: 0 }),
        ],
        [
          'an issue resolved',
          () => finding(w, null),
          (l) => {
            expect(l.issues).toEqual({ CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 0 });
            expect(l.moneyAtRisk).toBe(0);
          },
        ],
        [
          'a goal set',
          () =>
            w.run(
              `INSERT INTO goals (account_id, campaign_id, kind, target, updated_at) VALUES ('acc_1', NULL, 'CPA', 5, ?)`,
              [new Date(NOW).toISOString()],
            ),
          (l) => expect(l.goal).toMatchObject({ kind: 'CPA', target: 5 }),
        ],
        [
          'a goal changed',
          () => w.run(`UPDATE goals SET target = 20 WHERE account_id = 'acc_1'`),
          (l) => expect(l.goal).toMatchObject({ kind: 'CPA', target: 20 }),
        ],
        [
          'a goal removed',
          () => w.run(`DELETE FROM goals WHERE account_id = 'acc_1'`),
          (l) => expect(l.goal).toBeNull(),
        ],
        [
          "a day of the campaign's insights",
          () =>
            w.run(
              `INSERT INTO insights_campaign_daily (campaign_id, date, account_id, spend_micros, impressions, clicks,
                 conversions, revenue_micros, reach, link_clicks) VALUES ('cmp_1', '2026-03-10', 'acc_1', 5000000, 1, 1, 0, 0, 1, 1)`,
            ),
          (l) => expect(l.spendThisMonth).toBe(95),
        ],
        [
          // 01:00 UTC on the 11th is still the 10th in New York: the same days, a day less on the token.
          '13 hours later: one day less on the token',
          async () => {
            w.clock.at = NOW + 13 * 3600_000;
          },
          (l) => expect(l.tokenWarning).toMatch(/expires in 2 days/),
        ],
        [
          'the next month',
          async () => {
            w.clock.at = Date.parse('2026-04-01T12:00:00.000Z');
          },
          (l) => {
            expect(l.month.from).toBe('2026-04-01');
            expect(l.spendThisMonth).toBe(0);
            expect(l.tokenWarning).toMatch(/expired/);
          },
        ],
      ];
      for (const [what, write, shows] of steps) {
        await write();
        const line = await w.line('acc_1');
        try {
          shows(line);
        } catch (error) {
          throw new Error(`after ${what}: ${(error as Error).message}`, { cause: error });
        }
        if (w.clock.at === NOW) expect(await w.line('acc_2'), what).toBe(other);
      }
      // A new day alone (acc_2 has no token to warn of): its line counts the new day.
      w.clock.at = Date.parse('2026-04-02T12:00:00.000Z');
      expect((await w.line('acc_2')).month.to).toBe('2026-04-02');
    } finally {
      await w.app.stop();
    }
  });

  it('hands back a held line while its counters stand, and builds it again once they move', async () => {
    const w = await world(engine);
    try {
      expect((await w.line('acc_1')).name).toBe('Acme');
      // A rename whose counter is then put back, as if nothing had been written: the held line stands.
      await w.run(`UPDATE ad_accounts SET name = 'Acme Renamed' WHERE id = 'acc_1'`);
      await w.run(`UPDATE ad_accounts SET line_revision = line_revision - 1 WHERE id = 'acc_1'`);
      expect((await w.line('acc_1')).name).toBe('Acme');
      // Either counter moving builds it again.
      await w.run(`UPDATE ad_accounts SET revision = revision + 1 WHERE id = 'acc_1'`);
      expect((await w.line('acc_1')).name).toBe('Acme Renamed');
      // The list keeps its order when only held lines are on it, and sorts again when one changes.
      const first = await w.app.use.portfolio.home(w.ctx);
      expect((await w.app.use.portfolio.home(w.ctx)).items).toBe(first.items);
      await w.run(`UPDATE ad_accounts SET name = 'Zulu' WHERE id = 'acc_1'`);
      const after = await w.app.use.portfolio.home(w.ctx);
      expect(after.items.map((l) => l.name)).toEqual(['Bolt', 'Zulu']);
    } finally {
      await w.app.stop();
    }
  });
});

describe('tokenWarningChangesAt', () => {
  it('names the first instant at which the warning reads differently', () => {
    const expiry = '2026-03-20T06:00:00.000Z';
    for (const offset of [-1, 0, 0.5, 1, 2.25, 6.9, 7, 7.1, 30]) {
      const now = new Date(Date.parse(expiry) - offset * DAY);
      const at = tokenWarningChangesAt(expiry, now);
      if (offset <= 0) {
        expect(at).toBe(Infinity);
        continue;
      }
      expect(at).toBeGreaterThan(now.getTime());
      const warning = tokenWarning(expiry, now);
      expect(tokenWarning(expiry, new Date(at - 1)), `${offset}`).toBe(warning);
      expect(tokenWarning(expiry, new Date(at)), `${offset}`).not.toBe(warning);
    }
    expect(tokenWarningChangesAt(null, new Date(NOW))).toBe(Infinity);
  });
});
