// A store connected to one demo account, for the sync tests that run against the real demo platform
// (in-process or on its thread), and the store's contents to compare two syncs by.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, type Core } from '../core/core';
import { createWorkspace } from '../core/identity/workspaces';
import { GraphClient } from '../core/platform/graph-client';
import { SyncService } from '../core/sync/service';

export interface DemoEndpoint {
  url: string;
  apiVersion: string;
}

/** The platform ID of the first demo account in this currency. */
export async function demoAccountIn(demo: DemoEndpoint, currency: string): Promise<string> {
  const client = new GraphClient({ baseUrl: demo.url, apiVersion: demo.apiVersion, token: 'demo-token' });
  for await (const page of client.listAdAccounts()) {
    const found = page.find((a) => a.currency === currency);
    if (found) return found.id;
  }
  throw new Error(`the demo platform has no ${currency} account`);
}

/** A new data directory with one workspace and the demo account connected (not yet synced). */
export async function connectDemoAccount(
  demo: DemoEndpoint,
  platformAccountId: string,
  options: { inWorker?: boolean } = {},
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'adlens-demo-sync-'));
  const core = createCore({ dataDir });
  const sync = new SyncService(core, {
    ...(options.inWorker ? { inWorker: true } : {}),
    demoPlatform: async () => ({ url: demo.url, apiVersion: demo.apiVersion }),
  });
  const workspace = await createWorkspace(core.sql, { name: 'Agency', plan: 'agency' });
  const account = await sync.connectAccount({
    workspaceId: workspace.id,
    platformAccountId,
    baseUrl: 'demo:',
    token: 'demo-token',
  });
  return { dataDir, core, sync, account };
}

/** What a sync stored, in a comparable form (platform IDs, not the store's own). */
export function syncedContents(core: Core) {
  const q = (sql: string) => core.db.prepare(sql).all();
  return {
    campaigns: q(
      `SELECT platform_campaign_id, name, daily_budget_micros, insights_synced_through FROM campaigns ORDER BY 1`,
    ),
    adSets: q(`SELECT platform_ad_set_id, name, learning_status FROM ad_sets ORDER BY 1`),
    ads: q(`SELECT platform_ad_id, name, status FROM ads ORDER BY 1`),
    campaignDaily: q(
      `SELECT c.platform_campaign_id, i.date, i.spend_micros, i.conversions, i.revenue_micros FROM insights_campaign_daily i JOIN campaigns c ON c.id = i.campaign_id ORDER BY 1, 2`,
    ),
    adDaily: q(
      `SELECT count(*) n, sum(spend_micros) s, sum(conversions) c, sum(impressions) i FROM insights_ad_daily`,
    ),
    adSetDaily: q(`SELECT count(*) n, sum(spend_micros) s, sum(conversions) c FROM insights_ad_set_daily`),
  };
}
