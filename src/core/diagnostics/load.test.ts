// The loader: a constructed campaign written to a real store and read back gives the same snapshot
// (and the same diagnostic) as the in-memory one, with index-backed queries.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../clock';
import { openStore, type Store } from '../store/open';
import { DEFAULT_PROFILE } from './andromeda';
import { diagnose, loadFromDate } from './engine';
import { buildCampaign, insertCampaign, seedWorkspace, step } from '../../test-support/diagnostics-fixtures';
import { campaignsWithDelivery, loadCampaigns } from './load';
import { sqliteSql } from '../store/sql';
import type { CampaignData } from './types';

const TODAY = '2026-03-01';
const FROM = addDays(TODAY, -13);
let dir: string;
let store: Store;
let built: CampaignData;
let accountId: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'adlens-diag-load-'));
  store = openStore(dir);
  accountId = seedWorkspace(store.db).accountId;
  built = buildCampaign({
    name: 'Spring Sale',
    today: TODAY,
    days: 60,
    adSets: [
      {
        name: 'US broad',
        targeting: { geo_locations: { countries: ['US'] }, age_min: 18, age_max: 65 },
        // Two ads at $40 a day: a budget it delivers (no pacing finding beside the two under test).
        dailyBudget: 90,
        learning: { status: 'FAIL', conversions: 12, editDaysAgo: 9 },
        ads: [
          { name: 'Video hook', ctr: step(0.02, 0.012, 7), frequency: step(1.25, 1.6, 7) },
          { name: 'Carousel' },
        ],
      },
      {
        name: 'DE broad',
        targeting: { geo_locations: { countries: ['DE'] }, age_min: 25, age_max: 54, genders: [2] },
        dailyBudget: 40,
        ads: [{ name: 'Static' }],
      },
    ],
  });
  insertCampaign(store.db, accountId, built);
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('loadCampaigns', () => {
  it('reads back what was written, limited to the load window', async () => {
    const loadFrom = loadFromDate(FROM, TODAY);
    const [loaded] = await loadCampaigns(sqliteSql(store.db), [built.id], loadFrom, TODAY);
    expect(loaded?.name).toBe('Spring Sale');
    expect(loaded?.adSets.map((s) => s.name).sort()).toEqual(['DE broad', 'US broad']);
    expect(loaded?.ads).toHaveLength(3);
    const de = loaded?.adSets.find((s) => s.name === 'DE broad');
    expect(de?.targeting).toMatchObject({ countries: ['DE'], ageMin: 25, ageMax: 54, genders: ['female'] });
    const us = loaded?.adSets.find((s) => s.name === 'US broad');
    expect(us?.snapshots).toEqual([expect.objectContaining({ status: 'FAIL', conversions: 12 })]);
    expect([...(loaded?.daily.keys() ?? [])].sort()[0]).toBe(loadFrom);
    expect(loaded?.daily.get(TODAY)).toEqual(built.daily.get(TODAY));
  });

  it('gives the same diagnostic as the in-memory campaign', async () => {
    const learned = { profile: DEFAULT_PROFILE, customized: false, feedback: new Map() };
    const [loaded] = await loadCampaigns(sqliteSql(store.db), [built.id], loadFromDate(FROM, TODAY), TODAY);
    const fromStore = diagnose({ campaigns: [loaded as CampaignData], from: FROM, to: TODAY, learned });
    const inMemory = diagnose({ campaigns: [built], from: FROM, to: TODAY, learned });
    expect(fromStore.issues.map((i) => i.type).sort()).toEqual(['CREATIVE_FATIGUE', 'LEARNING_PHASE_STALL']);
    expect(JSON.stringify(fromStore)).toBe(JSON.stringify(inMemory));
  });

  it('finds the campaigns with delivery in a range', async () => {
    const sql = sqliteSql(store.db);
    expect(await campaignsWithDelivery(sql, accountId, FROM, TODAY)).toEqual([built.id]);
    expect(await campaignsWithDelivery(sql, accountId, '2020-01-01', '2020-01-31')).toEqual([]);
  });

  it('reads daily rows through the (campaign_id, date) indexes', () => {
    const IDS = `(SELECT value FROM json_each(?))`;
    const plan = (sql: string) => {
      const text = (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('[]', 'a', 'b') as { detail: string }[])
        .map((r) => r.detail)
        .join(' | ');
      // The days' order (loadCampaigns sorts them for PostgreSQL) costs SQLite no sort.
      expect(text).not.toContain('TEMP B-TREE');
      return text;
    };
    expect(
      plan(
        `SELECT * FROM insights_ad_daily WHERE campaign_id IN ${IDS} AND date BETWEEN ? AND ? ORDER BY campaign_id, date`,
      ),
    ).toContain('insights_ad_daily_campaign_date (campaign_id=? AND date>? AND date<?)');
    expect(
      plan(
        `SELECT * FROM insights_ad_set_daily WHERE campaign_id IN ${IDS} AND date BETWEEN ? AND ? ORDER BY campaign_id, date`,
      ),
    ).toContain('insights_ad_set_daily_campaign_date (campaign_id=? AND date>? AND date<?)');
    expect(
      plan(
        `SELECT * FROM insights_campaign_daily WHERE campaign_id IN ${IDS} AND date BETWEEN ? AND ? ORDER BY campaign_id, date`,
      ),
    ).toContain('PRIMARY KEY (campaign_id=? AND date>? AND date<?)');
    const latest = (
      store.db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT d.id FROM diagnostics d WHERE d.campaign_id IN ${IDS} AND +d.status = 'completed'
       ORDER BY d.campaign_id, d.completed_at DESC, d.id DESC`,
        )
        .all('[]') as { detail: string }[]
    )
      .map((r) => r.detail)
      .join(' | ');
    expect(latest).toContain('diagnostics_campaign_completed');
  });
});
