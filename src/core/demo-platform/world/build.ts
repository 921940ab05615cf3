// Builds one campaign's ad sets and ads, shaped by its scenario: the structural half of each
// injected problem (narrow targeting, a duplicated overlapping ad set, a budget cut) lives here,
// the delivery half in ../delivery.ts.

import { Rng } from '../prng';
import { zonedEpochSeconds } from '../time';
import { AD_FORMATS, SMALL_COUNTRIES } from './catalog';
import type { IdFactory } from './generate';
import type { Account, Ad, AdSet, AdSetProfile, Campaign, ConfiguredStatus, Targeting, World } from './types';

const AGE_BANDS: Record<number, ReadonlyArray<readonly [number, number]>> = {
  1: [[18, 65]],
  2: [
    [18, 34],
    [35, 65],
  ],
  3: [
    [18, 29],
    [30, 44],
    [45, 65],
  ],
  4: [
    [18, 24],
    [25, 34],
    [35, 49],
    [50, 65],
  ],
  5: [
    [18, 24],
    [25, 31],
    [32, 39],
    [40, 52],
    [53, 65],
  ],
};

/** Targeting cells that never overlap each other: distinct countries, or disjoint age bands. */
function partitionTargeting(rng: Rng, countries: readonly string[], n: number): Targeting[] {
  const broadMin = rng.pick([18, 18, 21, 25]);
  if (countries.length >= n && rng.chance(0.55)) {
    return rng
      .shuffle(countries)
      .slice(0, n)
      .map((c) => ({ geo_locations: { countries: [c] }, age_min: broadMin, age_max: 65 }));
  }
  const geo = rng.shuffle(countries).slice(0, rng.int(1, Math.min(3, countries.length)));
  const bands = AGE_BANDS[Math.min(n, 5)] ?? AGE_BANDS[1] ?? [];
  return bands.map(([min, max]) => ({ geo_locations: { countries: [...geo] }, age_min: min, age_max: max }));
}

/** A narrow audience inside a cell: one (preferably small) country, a 5–10 year band, one gender. */
function narrowed(rng: Rng, cell: Targeting): Targeting {
  const small = cell.geo_locations.countries.filter((c) => SMALL_COUNTRIES.has(c));
  const country = rng.pick(small.length > 0 ? small : cell.geo_locations.countries);
  const span = rng.int(4, 9);
  const min = rng.int(Math.max(cell.age_min, 22), Math.max(Math.max(cell.age_min, 22), cell.age_max - span));
  return {
    geo_locations: { countries: [country] },
    age_min: min,
    age_max: Math.min(65, min + span),
    genders: [rng.pick([1, 2])],
  };
}

/** Heavily overlapping copy of a cell: same countries, nearly the same ages. */
function overlapping(rng: Rng, cell: Targeting): Targeting {
  const min = Math.min(cell.age_min + rng.int(0, 3), cell.age_max - 8);
  const max = Math.max(min + 8, cell.age_max - rng.int(0, 4));
  return { geo_locations: { countries: [...cell.geo_locations.countries] }, age_min: min, age_max: max };
}

function budgetMinor(account: Account, usd: number): number {
  const major = usd * account.fxPerUsd;
  if (account.minorPerMajor === 1) return Math.max(100, Math.round(major / 100) * 100);
  return Math.max(1, Math.round(major)) * account.minorPerMajor;
}

function cpaUsd(p: AdSetProfile): number {
  return p.cpmUsd / 1000 / (p.ctr * p.linkShare * p.cvr);
}

function time(account: Account, day: number, rng: Rng): number {
  return zonedEpochSeconds(day, rng.int(8 * 3600, 19 * 3600), account.timezone);
}

function childStatus(
  rng: Rng,
  index: number,
  parent: ConfiguredStatus,
  pausedShare: number,
): ConfiguredStatus {
  if (parent === 'ARCHIVED' || parent === 'DELETED') return parent;
  if (index === 0) return 'ACTIVE';
  const roll = rng.next();
  return roll < pausedShare
    ? 'PAUSED'
    : roll < pausedShare + 0.03
      ? 'DELETED'
      : roll < pausedShare + 0.05
        ? 'ARCHIVED'
        : 'ACTIVE';
}

/** Delivery window of a child that was paused or removed: a pause before the baseline, or never delivered. */
function stoppedWindow(
  rng: Rng,
  status: ConfiguredStatus,
  startDay: number,
  todayDay: number,
): number | null {
  if (status === 'ACTIVE') return null;
  if (status === 'PAUSED' && startDay + 5 <= todayDay - 85) return rng.int(startDay + 5, todayDay - 85);
  return startDay - 1;
}

export function buildCampaign(world: World, campaign: Campaign, ids: IdFactory, key: number): number {
  const rng = Rng.of(world.seed, 'build', campaign.key);
  const account = campaign.account;
  const scenario = campaign.scenario;
  const category = scenario?.category;
  const { todayDay, firstDay } = world;

  const legacyObjective = campaign.startDay < firstDay - 60 && rng.chance(0.3);
  if (legacyObjective && campaign.resultKind === 'PURCHASE') campaign.objective = 'CONVERSIONS';
  campaign.budgetMode = category === 'LEARNING_PHASE_STALL' || !rng.chance(0.35) ? 'ABO' : 'CBO';

  const base: AdSetProfile = {
    cpmUsd: rng.range(7, 15),
    ctr: rng.range(0.009, 0.02),
    linkShare: rng.range(0.6, 0.8),
    cvr: rng.range(0.025, 0.06),
    frequency: rng.range(1.06, 1.35),
    utilization: rng.range(0.88, 0.97),
  };
  const baseCount =
    category === 'AUCTION_OVERLAP' || category === 'LEARNING_PHASE_STALL' ? rng.int(2, 3) : rng.int(2, 4);
  const extra = category === 'AUCTION_OVERLAP' || scenario?.variant.startsWith('new_adset') ? 1 : 0;
  const cells = partitionTargeting(
    rng,
    account.countries,
    baseCount + (category === 'LEARNING_PHASE_STALL' ? extra : 0),
  );
  const valueShare = scenario ? 0 : 0.1;

  const specs: Array<{ targeting: Targeting; k: number; start: number; role: AdSet['role'] }> = [];
  for (let i = 0; i < baseCount; i++) {
    let targeting = cells[i] as Targeting;
    let k = rng.range(13, 21);
    let role: AdSet['role'] = null;
    if (i === 0 && category === 'AUDIENCE_SATURATION') {
      targeting = narrowed(rng, targeting);
      role = 'target';
    }
    if (i === 0 && category === 'CREATIVE_FATIGUE') {
      k *= 1.4;
      role = 'target';
    }
    if (category === 'PACING_ISSUE' || category === 'CPA_DEGRADATION') role = 'member';
    if (i === 0 && category === 'AUCTION_OVERLAP') role = 'member';
    if (i === 0 && scenario?.variant.startsWith('budget_cut')) role = 'target';
    specs.push({ targeting, k, start: campaign.startDay + rng.int(0, 2), role });
  }
  if (scenario && extra === 1) {
    // The problem arrives with a new ad set launched on `since`.
    const overlap = category === 'AUCTION_OVERLAP';
    specs.push({
      targeting: overlap ? overlapping(rng, cells[0] as Targeting) : (cells[baseCount] as Targeting),
      k: overlap ? rng.range(26, 34) : scenario.magnitude,
      start: scenario.since,
      role: 'target',
    });
  }

  const recentEditIndex =
    !scenario && campaign.evaluated && rng.chance(0.15) ? rng.int(0, specs.length - 1) : -1;
  const cboTotalUsd: number[] = [];
  specs.forEach((spec, i) => {
    const arng = Rng.of(world.seed, 'adset', campaign.key, i);
    const profile: AdSetProfile = {
      cpmUsd: base.cpmUsd * arng.lognormal(0.1),
      ctr: base.ctr * arng.lognormal(0.1),
      linkShare: base.linkShare,
      cvr: base.cvr * arng.lognormal(0.12),
      frequency: base.frequency * arng.lognormal(0.04),
      utilization: base.utilization,
    };
    const status = spec.role ? 'ACTIVE' : childStatus(arng, i, campaign.status, 0.06);
    const startDay = spec.start;
    const endDay =
      campaign.status === 'ARCHIVED' || campaign.status === 'DELETED'
        ? null
        : stoppedWindow(arng, status, startDay, todayDay);
    const cpa = cpaUsd(profile);
    const isStallTarget = category === 'LEARNING_PHASE_STALL' && spec.role === 'target';
    const budgetK = isStallTarget && scenario ? scenario.magnitude : spec.k;
    const createdTime = time(account, startDay - (spec.start === campaign.startDay ? 0 : 0), arng);
    let lastSigEditDay = Math.max(startDay, firstDay + 1);
    if (todayDay - 30 > lastSigEditDay && arng.chance(0.5))
      lastSigEditDay = arng.int(lastSigEditDay, todayDay - 30);
    let previousBudgetMinor: number | null = null;
    let budgetChangeDay: number | null = null;
    if (isStallTarget && scenario) {
      lastSigEditDay = scenario.since;
      if (scenario.variant.startsWith('budget_cut')) {
        previousBudgetMinor = budgetMinor(account, cpa * spec.k);
        budgetChangeDay = scenario.since;
      }
    }
    if (i === recentEditIndex && status === 'ACTIVE') lastSigEditDay = todayDay - arng.int(1, 5);
    const lastTouch = Math.max(lastSigEditDay, arng.chance(0.05) ? todayDay - arng.int(1, 2) : startDay);
    const costCap = arng.chance(0.2);
    cboTotalUsd.push(cpa * spec.k);
    const adSet: AdSet = {
      key: key++,
      id: ids.next('adset'),
      campaign,
      name: adSetName(spec.targeting, i),
      status,
      dailyBudgetMinor: campaign.budgetMode === 'ABO' ? budgetMinor(account, cpa * budgetK) : null,
      previousBudgetMinor,
      budgetChangeDay,
      bidStrategy: costCap ? 'COST_CAP' : 'LOWEST_COST_WITHOUT_CAP',
      bidAmountMinor: costCap ? budgetMinor(account, cpa * arng.range(1.25, 1.6)) : null,
      optimizationGoal: arng.chance(valueShare) ? 'VALUE' : 'OFFSITE_CONVERSIONS',
      targeting: spec.targeting,
      startDay,
      endDay,
      createdTime,
      startTime: Math.max(createdTime, zonedEpochSeconds(startDay, 0, account.timezone)),
      updatedTime: Math.max(createdTime, time(account, Math.min(lastTouch, todayDay - 1), arng)),
      lastSigEditDay,
      weight: cpa * spec.k,
      profile,
      role: spec.role,
      ads: [],
    };
    if (campaign.budgetMode === 'CBO') adSet.bidAmountMinor = null;
    if (campaign.budgetMode === 'CBO') adSet.bidStrategy = campaign.bidStrategy;
    buildAds(world, adSet, ids, arng, () => key++);
    campaign.adSets.push(adSet);
    if (spec.role === 'target' && scenario) scenario.adSetKey = adSet.key;
  });
  // The name's market follows the targeting it ended up with.
  const market = campaign.adSets[0]?.targeting.geo_locations.countries[0];
  if (market) campaign.name = campaign.name.replace(/\| [A-Z]{2} \|/, `| ${market} |`);
  if (campaign.budgetMode === 'CBO') {
    // A duplicated ad set came with a raised campaign budget (its share of spend is its own).
    const usd = cboTotalUsd.reduce((a, b) => a + b, 0);
    campaign.dailyBudgetMinor = budgetMinor(account, usd);
    campaign.bidStrategy = rng.chance(0.2) ? 'COST_CAP' : 'LOWEST_COST_WITHOUT_CAP';
    for (const adSet of campaign.adSets) adSet.bidStrategy = campaign.bidStrategy;
  }
  return key;
}

function adSetName(t: Targeting, i: number): string {
  const gender = t.genders?.[0] === 1 ? ' Men' : t.genders?.[0] === 2 ? ' Women' : '';
  return `${t.geo_locations.countries.join('+')} ${t.age_min}-${t.age_max}${gender} – AS${i + 1}`;
}

function buildAds(world: World, adSet: AdSet, ids: IdFactory, rng: Rng, nextKey: () => number): void {
  const campaign = adSet.campaign;
  const count = rng.int(2, 4);
  const formats = rng.shuffle(AD_FORMATS);
  for (let i = 0; i < count; i++) {
    const status = adSet.role
      ? i === 0
        ? 'ACTIVE'
        : childStatus(rng, i, adSet.status, 0)
      : childStatus(rng, i, adSet.status, 0.08);
    const startDay = adSet.startDay;
    const endDay =
      campaign.status === 'ARCHIVED' || campaign.status === 'DELETED'
        ? null
        : stoppedWindow(rng, status, startDay, world.todayDay);
    const createdTime = adSet.createdTime + rng.int(60, 3600);
    const ad: Ad = {
      key: nextKey(),
      id: ids.next('ad'),
      adSet,
      name: `${formats[i % formats.length] ?? 'Ad'} v${rng.int(1, 6)}`,
      status,
      creativeId: ids.next('creative'),
      startDay,
      endDay,
      createdTime,
      updatedTime: Math.max(
        createdTime,
        rng.chance(0.04)
          ? zonedEpochSeconds(world.todayDay - 1, 36000, campaign.account.timezone)
          : createdTime,
      ),
      weight: rng.lognormal(0.5),
      ctrMod: rng.lognormal(0.12),
      cvrMod: rng.lognormal(0.1),
      review: null,
    };
    adSet.ads.push(ad);
  }
}
