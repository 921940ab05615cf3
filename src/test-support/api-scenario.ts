// A seeded scenario shared by the API tests: two agency workspaces with live and test accounts,
// workspaces on every plan, and keys in every state.
import { sqliteSql } from '../core/store/sql';
import type { Db } from '../core/store/open';
import type { Clock } from '../core/clock';
import { createApiKey, revokeApiKey } from '../core/identity/api-keys';
import {
  seedAccount,
  seedAd,
  seedAdSet,
  seedCampaign,
  seedDailyInsights,
  seedKey,
  seedWorkspace,
} from './api-fixtures';

export async function seedScenario(db: Db, clock: Clock) {
  const a = seedWorkspace(db, { plan: 'agency', name: 'Agency A' });
  const b = seedWorkspace(db, { plan: 'agency', name: 'Agency B' });
  const starter = seedWorkspace(db, { plan: 'starter' });
  const pro = seedWorkspace(db, { plan: 'pro' });
  const trial = seedWorkspace(db, { plan: 'trial' });

  const a1 = seedAccount(db, {
    workspaceId: a.workspaceId,
    mode: 'live',
    name: 'A1 Shop',
    connectedBy: a.ownerId,
  });
  const a2 = seedAccount(db, {
    workspaceId: a.workspaceId,
    mode: 'test',
    name: 'A2 Demo',
    timezone: 'America/New_York',
  });
  const a3 = seedAccount(db, {
    workspaceId: a.workspaceId,
    mode: 'live',
    name: 'A3 Euro',
    currency: 'EUR',
    timezone: 'Europe/Berlin',
    connectionStatus: 'token_expired',
  });
  const b1 = seedAccount(db, { workspaceId: b.workspaceId, mode: 'live', name: 'B1 Other' });
  const trialAccount = seedAccount(db, { workspaceId: trial.workspaceId, mode: 'test', name: 'Trial demo' });

  const c1 = seedCampaign(db, { accountId: a1.id, name: 'Alpha prospecting' });
  const c2 = seedCampaign(db, { accountId: a1.id, name: 'Beta retargeting', status: 'PAUSED' });
  const c3 = seedCampaign(db, {
    accountId: a1.id,
    name: 'Gamma new',
    synced: false,
    dailyBudgetMicros: null,
  });
  const c4 = seedCampaign(db, { accountId: a2.id, name: 'Test-mode campaign' });
  const c5 = seedCampaign(db, { accountId: a3.id, name: 'Euro campaign' });
  const cb = seedCampaign(db, { accountId: b1.id, name: 'B campaign' });

  const s1 = seedAdSet(db, {
    accountId: a1.id,
    campaignId: c1,
    name: 'Lookalike 1%',
    learningStatus: 'LEARNING',
  });
  const s2 = seedAdSet(db, {
    accountId: a1.id,
    campaignId: c1,
    name: 'Broad',
    targeting: { geo_locations: { countries: ['US', 'CA'] }, genders: [2] },
  });
  seedAd(db, { accountId: a1.id, campaignId: c1, adSetId: s1, name: 'Video A' });
  seedAd(db, { accountId: a1.id, campaignId: c1, adSetId: s1, name: 'Video B' });
  seedAd(db, { accountId: a1.id, campaignId: c1, adSetId: s2, name: 'Carousel' });

  // 2026-02-19 .. 2026-03-10: 10.00 a day, 2 conversions, revenue 30.00.
  seedDailyInsights(db, {
    accountId: a1.id,
    campaignId: c1,
    from: '2026-02-19',
    days: 20,
    row: () => ({
      spendMicros: 10_000_000,
      impressions: 1000,
      clicks: 20,
      conversions: 2,
      revenueMicros: 30_000_000,
      reach: 800,
    }),
  });
  // Spend without conversions: cpa is null, never Infinity.
  seedDailyInsights(db, {
    accountId: a1.id,
    campaignId: c2,
    from: '2026-03-01',
    days: 10,
    row: () => ({ spendMicros: 5_000_000, impressions: 500, clicks: 5, conversions: 0, revenueMicros: 0 }),
  });
  seedDailyInsights(db, {
    accountId: b1.id,
    campaignId: cb,
    from: '2026-03-01',
    days: 10,
    row: () => ({ spendMicros: 99_000_000, impressions: 9000, clicks: 90, conversions: 9, revenueMicros: 0 }),
  });

  const keys = {
    liveA: await seedKey(db, clock, { workspaceId: a.workspaceId, mode: 'live' }),
    testA: await seedKey(db, clock, { workspaceId: a.workspaceId, mode: 'test' }),
    liveB: await seedKey(db, clock, { workspaceId: b.workspaceId, mode: 'live' }),
    starter: await seedKey(db, clock, { workspaceId: starter.workspaceId }),
    pro: await seedKey(db, clock, { workspaceId: pro.workspaceId }),
    trial: await seedKey(db, clock, { workspaceId: trial.workspaceId, mode: 'test' }),
    expired: await seedKey(db, clock, { workspaceId: a.workspaceId, expiresAt: '2026-03-01T00:00:00.000Z' }),
    revoked: await (async () => {
      const created = await createApiKey(sqliteSql(db), clock, { workspaceId: a.workspaceId });
      await revokeApiKey(sqliteSql(db), clock, created.apiKey.id);
      return { key: created.key, id: created.apiKey.id };
    })(),
  };
  return { a, b, starter, pro, trial, a1, a2, a3, b1, trialAccount, c1, c2, c3, c4, c5, cb, s1, s2, keys };
}

export type Scenario = Awaited<ReturnType<typeof seedScenario>>;
