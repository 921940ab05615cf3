// Parity: for the same data, every transport (/v1, the desktop's IPC handler map, the web bridge and
// the CLI) shows the same view of each resource, because each only translates a use case. A transport
// that computed its own number (a UTC "today", its own default window) would differ here.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { toApiAccount, type Account } from '../shared/api/accounts';
import type { AccountGoals, CampaignGoal } from '../shared/api/goals';
import type { AccountView, CampaignList } from '../shared/ipc/types';
import type { Portfolio } from '../shared/api/portfolio';
import { addDays, dateInZone } from './clock';
import { microsToAmount } from './money';
import { ENGINES } from '../test-support/engines';
import { PARITY_TODAY, transportWorld, type TransportWorld } from '../test-support/transports';

const byId = <T extends { id: string }>(items: T[]): T[] =>
  [...items].sort((a, b) => a.id.localeCompare(b.id));

// The same suite on a solo install's SQLite file and on a team server's PostgreSQL.
describe.each(ENGINES)('on %s', (engine) => {
  let w: TransportWorld;

  beforeAll(async () => {
    w = await transportWorld(2, engine);
  }, 180_000);

  afterAll(async () => {
    await w?.close();
  });

  describe('accounts', () => {
    it('has accounts in different time zones, so "today" differs between them at 18:00 UTC', () => {
      expect(w.accounts.length).toBe(2);
      const days = new Set(w.accounts.map((a) => dateInZone(w.app.core.clock.now(), a.timezone)));
      expect(days.size).toBe(2);
    });

    it('lists the same accounts with the same figures through /v1, IPC and the web bridge', async () => {
      const v1 = await w.v1('/v1/accounts?page_size=100');
      expect(v1.status).toBe(200);
      const ipc = await w.ipc<AccountView[]>('accounts.list');
      const bridge = await w.bridge<AccountView[]>('accounts.list');
      const api = byId(v1.body.data as Account[]);
      expect(api).toEqual(byId(ipc.map(toApiAccount)));
      expect(byId(bridge)).toEqual(byId(ipc));
      for (const account of api) {
        const one = await w.v1(`/v1/accounts/${account.platformAccountId}`);
        expect(one.body.data).toEqual(account);
      }
    });

    it("sums the 30-day spend over the 30 days ending today in each account's own time zone", async () => {
      const ipc = await w.ipc<AccountView[]>('accounts.list');
      const synced = new Set(w.accounts.map((a) => a.id));
      for (const account of ipc.filter((a) => synced.has(a.id))) {
        const today = dateInZone(w.app.core.clock.now(), account.timezone);
        const row = await w.app.core.sql.get<{ micros: number }>(
          `SELECT coalesce(sum(spend_micros), 0) AS micros FROM insights_campaign_daily WHERE account_id = ? AND date BETWEEN ? AND ?`,
          [account.id, addDays(today, -29), today],
        );
        const micros = row?.micros ?? 0;
        expect(micros).toBeGreaterThan(0);
        expect(account.totalSpendLast30d).toBe(microsToAmount(micros));
      }
    });
  });

  describe('campaigns', () => {
    it("shows the same campaigns and 7-day figures per account (each account's own today)", async () => {
      for (const account of w.accounts) {
        type ApiCampaign = { id: string; insights: { spend: number; clicks: number; conversions: number } };
        const api: ApiCampaign[] = [];
        for (let page = 1; ; page += 1) {
          const v1 = await w.v1(`/v1/campaigns?account_id=${account.id}&page_size=100&page=${page}`);
          expect(v1.status).toBe(200);
          api.push(...(v1.body.data as ApiCampaign[]));
          if (api.length >= (v1.body.pagination?.total ?? 0)) break;
        }
        const ipc = await w.ipc<CampaignList>('campaigns.list', {
          accountId: account.id,
          range: { days: 7 },
        });
        const bridge = await w.bridge<CampaignList>('campaigns.list', {
          accountId: account.id,
          range: { days: 7 },
        });
        expect(bridge).toEqual(ipc);
        const today = dateInZone(w.app.core.clock.now(), account.timezone);
        expect(ipc.dateRange).toEqual({ from: addDays(today, -6), to: today });
        const fromIpc = new Map(ipc.items.map((c) => [c.id, c]));
        expect(api.map((c) => c.id).sort()).toEqual([...fromIpc.keys()].sort());
        for (const c of api) {
          const other = fromIpc.get(c.id);
          expect({
            spend: c.insights.spend,
            clicks: c.insights.clicks,
            conversions: c.insights.conversions,
          }).toEqual({
            spend: other?.spend,
            clicks: other?.clicks,
            conversions: other?.conversions,
          });
        }
      }
    });

    it('opens a campaign with the same 30-day daily series through /v1 and the app', async () => {
      const account = w.accounts[0] as AccountView;
      const list = await w.ipc<CampaignList>('campaigns.list', { accountId: account.id });
      const top = [...list.items].sort((a, b) => b.spend - a.spend)[0];
      const v1 = await w.v1(`/v1/campaigns/${top?.id}?include=insights&insightsDateRange=last_30d`);
      const api = v1.body.data as {
        insights: { spend: number; daily: Array<{ date: string; spend: number }> };
      };
      const screen = await w.ipc<{
        daily: Array<{ date: string; spend: number }>;
        campaign: { spend: number };
      }>('campaigns.get', { campaignId: top?.id, range: { days: 30 } });
      expect(api.insights.daily.map((d) => [d.date, d.spend])).toEqual(
        screen.daily.map((d) => [d.date, d.spend]),
      );
      expect(api.insights.spend).toBe(screen.campaign.spend);
    });
  });

  describe('insights', () => {
    it('summarizes an account identically through /v1, IPC and the bridge, with the same default window', async () => {
      for (const account of w.accounts) {
        const v1 = await w.v1(`/v1/insights/summary?account_id=${account.id}`);
        expect(v1.status).toBe(200);
        const ipc = await w.ipc<unknown>('insights.summary', { accountId: account.id });
        const bridge = await w.bridge<unknown>('insights.summary', { accountId: account.id });
        expect(ipc).toEqual(v1.body.data);
        expect(bridge).toEqual(ipc);
        const today = dateInZone(w.app.core.clock.now(), account.timezone);
        expect((ipc as { dateRange: unknown }).dateRange).toEqual({ from: addDays(today, -6), to: today });
      }
    });

    it('summarizes across currencies the same way everywhere: one total per currency, no money added', async () => {
      const currencies = [...new Set(w.accounts.map((a) => a.currency))].sort();
      if (currencies.length < 2) return;
      const v1 = await w.v1('/v1/insights/summary');
      expect(v1.status).toBe(200);
      const ipc = await w.ipc<{ currency: string; currencies: Array<{ currency: string }> }>(
        'insights.summary',
        {},
      );
      expect(ipc).toEqual(v1.body.data);
      expect(ipc.currency).toBe('XXX');
      const listed = ipc.currencies.map((c) => c.currency);
      expect(listed).toEqual(expect.arrayContaining(currencies));
      expect(listed).toEqual([...listed].sort());
    });
  });

  describe('diagnostics', () => {
    it('runs with the same default window through /v1 and the app, and reads back the same diagnostic', async () => {
      const account = w.accounts[0] as AccountView;
      const list = await w.ipc<CampaignList>('campaigns.list', { accountId: account.id });
      const [first, second] = [...list.items].sort((a, b) => b.spend - a.spend);
      const viaApi = await w.v1('/v1/diagnostics', {
        body: { account_id: account.platformAccountId, campaign_id: first?.id },
      });
      expect(viaApi.status).toBe(202);
      const viaApp = await w.ipc<{ id: string }>('diagnostics.run', {
        accountId: account.id,
        campaignId: second?.id,
      });
      const today = dateInZone(w.app.core.clock.now(), account.timezone);
      const expected = { from: addDays(today, -7), to: today };
      for (const id of [(viaApi.body.data as { id: string }).id, viaApp.id]) {
        let detail: { status: string; dateRange: unknown } | undefined;
        for (let i = 0; i < 200; i += 1) {
          detail = (await w.v1(`/v1/diagnostics/${id}`)).body.data as { status: string; dateRange: unknown };
          if (detail.status === 'completed' || detail.status === 'failed') break;
          await new Promise((r) => setTimeout(r, 50));
        }
        expect(detail?.status).toBe('completed');
        expect(detail?.dateRange).toEqual(expected);
        const screen = await w.ipc<Record<string, unknown>>('diagnostics.get', { id });
        const bridge = await w.bridge<Record<string, unknown>>('diagnostics.get', { id });
        expect(bridge).toEqual(screen);
        const { feedback, campaignTargetCpa, ...common } = screen;
        expect(feedback).toEqual({});
        expect(campaignTargetCpa).toBeNull();
        expect(common).toEqual(detail);
      }
    });
  });

  describe('reports', () => {
    it('counts the 20-campaign limit after de-duplication everywhere, and lists reports identically', async () => {
      const account = w.accounts[0] as AccountView;
      const list = await w.ipc<CampaignList>('campaigns.list', { accountId: account.id });
      const twenty = list.items.slice(0, 20).map((c) => c.id);
      const withRepeat = [...twenty, twenty[0] as string];
      const body = {
        account_id: account.id,
        title: 'Parity',
        date_start: addDays(PARITY_TODAY, -13),
        date_end: PARITY_TODAY,
        format: 'json',
        campaign_ids: withRepeat,
      };
      expect((await w.v1('/v1/reports', { body })).status).toBe(202);
      const viaApp = await w.ipc<{ id: string }>('reports.create', {
        accountId: account.id,
        title: 'Parity',
        dateFrom: body.date_start,
        dateTo: body.date_end,
        format: 'json',
        campaignIds: withRepeat,
      });
      expect(viaApp.id).toMatch(/^rpt_/);
      const tooMany = await w.v1('/v1/reports', {
        body: { ...body, campaign_ids: list.items.slice(0, 21).map((c) => c.id) },
      });
      expect(tooMany.body.error?.type).toBe('too_many_campaigns');
      await expect(
        w.ipc('reports.create', {
          accountId: account.id,
          title: 'x',
          dateFrom: body.date_start,
          dateTo: body.date_end,
          campaignIds: list.items.slice(0, 21).map((c) => c.id),
        }),
      ).rejects.toThrow(/too_many_campaigns/);
      // Both reports render in the background: compare the lists once they are settled, not while one
      // of them finishes between the two reads.
      await vi.waitFor(
        async () => {
          const listed = await w.v1('/v1/reports?page_size=100');
          const statuses = (listed.body.data as Array<{ status: string }>).map((r) => r.status);
          expect(statuses.filter((status) => status === 'pending' || status === 'generating')).toEqual([]);
        },
        { timeout: 60_000, interval: 100 },
      );
      const v1 = await w.v1('/v1/reports?page_size=100');
      const ipc = await w.ipc<{ items: unknown[] }>('reports.list', { page: 1, pageSize: 100 });
      expect(ipc.items).toEqual(v1.body.data);
    });
  });

  describe('goals', () => {
    it('shows the same goals through /v1, IPC, the web bridge and the CLI, whichever transport set them', async () => {
      const account = w.accounts[0] as AccountView;
      const list = await w.ipc<CampaignList>('campaigns.list', { accountId: account.id, range: { days: 7 } });
      const [first, second] = list.items.map((c) => c.id) as [string, string];
      expect(second).toBeDefined();

      // The account goal through /v1, a campaign's own through the bridge, another's through the CLI.
      const put = await w.v1(`/v1/accounts/${account.id}/goals`, {
        method: 'PUT',
        body: { kind: 'ROAS', target: 2 },
      });
      expect(put.status).toBe(200);
      await w.bridge('goals.set', { accountId: account.id, campaignId: first, kind: 'CPA', target: 30 });
      await w.cli('goals', ['set', '--workspace', w.workspaceId, '--campaign', second, '--break-even']);

      const v1 = await w.v1(`/v1/accounts/${account.platformAccountId}/goals`);
      const ipc = await w.ipc<AccountGoals>('goals.list', { accountId: account.id });
      const bridge = await w.bridge<AccountGoals>('goals.list', { accountId: account.id });
      const { goals: cli } = await w.cli<{ goals: AccountGoals }>('goals', [
        'show',
        '--workspace',
        w.workspaceId,
        '--account',
        account.platformAccountId,
      ]);
      expect(ipc.account).toMatchObject({ kind: 'ROAS', target: 2 });
      expect(ipc.campaigns.map((g) => [g.campaignId, g.kind, g.target]).sort()).toEqual(
        [
          [first, 'CPA', 30],
          [second, 'ROAS', 1],
        ].sort(),
      );
      expect(v1.body.data).toEqual(ipc);
      expect(bridge).toEqual(ipc);
      expect(cli).toEqual(ipc);

      const campaignV1 = await w.v1(`/v1/campaigns/${first}/goal`);
      expect(campaignV1.body.data).toEqual(
        await w.ipc<CampaignGoal>('goals.campaign', { campaignId: first }),
      );

      // Cleared through IPC: every transport sees it gone.
      await w.ipc('goals.clear', { accountId: account.id, campaignId: first });
      await w.ipc('goals.clear', { accountId: account.id });
      const after = await w.bridge<AccountGoals>('goals.list', { accountId: account.id });
      expect(after.account).toBeNull();
      expect(after.campaigns.map((g) => g.campaignId)).toEqual([second]);
      expect((await w.v1(`/v1/accounts/${account.id}/goals`)).body.data).toEqual(after);
      await w.cli('goals', ['clear', '--workspace', w.workspaceId, '--campaign', second]);
      expect((await w.ipc<AccountGoals>('goals.list', { accountId: account.id })).campaigns).toEqual([]);
    });

    it('refuses the same invalid goal everywhere', async () => {
      const account = w.accounts[0] as AccountView;
      const v1 = await w.v1(`/v1/accounts/${account.id}/goals`, {
        method: 'PUT',
        body: { kind: 'CPA', target: -1 },
      });
      expect(v1.status).toBe(400);
      await expect(w.ipc('goals.set', { accountId: account.id, kind: 'CPA', target: -1 })).rejects.toThrow(
        /invalid_request: .*above zero/,
      );
      await expect(w.bridge('goals.set', { accountId: account.id, kind: 'CPA', target: -1 })).rejects.toThrow(
        /invalid_request/,
      );
      await expect(
        w.cli('goals', ['set', '--workspace', w.workspaceId, '--account', account.id, '--cpa', '0']),
      ).rejects.toThrow(/above zero/);
    });
  });

  describe('the command line', () => {
    it('lists the same accounts as the app, and the same reports as /v1', async () => {
      const { accounts } = await w.cli<{ accounts: AccountView[] }>('account', [
        'list',
        '--workspace',
        w.workspaceId,
      ]);
      const ipc = await w.ipc<AccountView[]>('accounts.list');
      expect(byId(accounts).map(toApiAccount)).toEqual(byId(ipc).map(toApiAccount));
      expect(byId(accounts).map((a) => [a.mode, a.statusReason])).toEqual(
        byId(ipc).map((a) => [a.mode, a.statusReason]),
      );
      const { reports } = await w.cli<{ reports: unknown[] }>('report', [
        'list',
        '--workspace',
        w.workspaceId,
      ]);
      const v1 = await w.v1('/v1/reports?page_size=100');
      expect(reports).toEqual(v1.body.data);
    });

    it('diagnoses with the same default window as /v1 and the app', async () => {
      const account = w.accounts[1] as AccountView;
      const { diagnostic } = await w.cli<{ diagnostic: { dateRange: unknown; status: string } }>('diagnose', [
        '--workspace',
        w.workspaceId,
        '--account',
        account.platformAccountId,
      ]);
      const today = dateInZone(w.app.core.clock.now(), account.timezone);
      expect(diagnostic).toMatchObject({
        status: 'completed',
        dateRange: { from: addDays(today, -7), to: today },
      });
    });
  });

  describe('portfolio', () => {
    it('shows the same lines, in the same attention order, through /v1, IPC and the web bridge', async () => {
      const v1 = await w.v1('/v1/portfolio');
      expect(v1.status).toBe(200);
      const ipc = await w.ipc<Portfolio>('portfolio.home');
      const bridge = await w.bridge<Portfolio>('portfolio.home');
      expect(ipc.items.length).toBeGreaterThanOrEqual(2);
      expect(v1.body.data).toEqual(ipc);
      expect(bridge).toEqual(ipc);
      const overview = await w.v1(`/v1/accounts/${w.accounts[0]!.id}/overview`);
      expect(overview.body.data).toEqual(await w.ipc('portfolio.overview', { accountId: w.accounts[0]!.id }));
    });
  });
});
