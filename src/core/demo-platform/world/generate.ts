// generateWorld: the deterministic demo agency for a seed and a `today`. Structure is built in
// three passes: accounts and campaign skeletons, then the scenario assignment (which needs every
// campaign), then each campaign's ad sets and ads shaped by its scenario.

import { minorUnitsPerMajor } from '../../money';
import { hash32, Rng } from '../prng';
import { assignScenarios, INJECTION_MIN_HISTORY_DAYS } from '../scenarios';
import { dayNumber, zonedEpochSeconds } from '../time';
import { assignDeliveryBlockers } from './blockers';
import { buildCampaign } from './build';
import {
  ACCOUNT_SPECS,
  BUSINESS_NAMES,
  CAMPAIGN_HOOKS,
  CAMPAIGN_THEMES,
  CLIENT_ACCOUNT_SPECS,
  type AccountSpec,
} from './catalog';
import type {
  Account,
  Business,
  Campaign,
  ConfiguredStatus,
  GenerateWorldOptions,
  ResultKind,
  WeeklyPattern,
  World,
} from './types';

/** Days of history served, today included. */
export const HISTORY_DAYS = 150;

export const DEFAULT_LARGE_ACCOUNT_CAMPAIGNS = 120;

/** Id factory: Meta-like 18-digit numeric strings, distinct per seed and per kind. */
export class IdFactory {
  private readonly counters = new Map<string, number>();
  private readonly seedPart: string;

  constructor(seed: number) {
    this.seedPart = String(hash32(seed, 'ids') % 1_000_000).padStart(6, '0');
  }

  next(kind: 'campaign' | 'adset' | 'ad' | 'creative'): string {
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    const digit = { campaign: 1, adset: 2, ad: 3, creative: 4 }[kind];
    return `1202${digit}${this.seedPart}${String(n).padStart(7, '0')}`;
  }

  account(index: number): string {
    return `1${this.seedPart}${String(index + 101).padStart(3, '0')}`;
  }

  business(index: number): string {
    return `8${this.seedPart}${String(index + 1).padStart(8, '0')}`;
  }
}

export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

export function generateWorld(opts: GenerateWorldOptions = {}): World {
  const seed = opts.seed ?? 1;
  const today = opts.today ?? todayUtc();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today) || Number.isNaN(Date.parse(`${today}T00:00:00Z`))) {
    throw new RangeError(`today must be YYYY-MM-DD, got ${today}`);
  }
  const largeCount = Math.max(1, Math.floor(opts.largeAccountCampaigns ?? DEFAULT_LARGE_ACCOUNT_CAMPAIGNS));
  const todayDay = dayNumber(today);
  const firstDay = todayDay - Math.max(1, Math.floor(opts.historyDays ?? HISTORY_DAYS)) + 1;
  const ids = new IdFactory(seed);
  const rng = Rng.of(seed, 'world');

  // One brand per business, chosen by the seed; its accounts carry the same brand.
  const brand = BUSINESS_NAMES.map((names) => rng.int(0, names.length - 1));
  const businesses: Business[] = BUSINESS_NAMES.map((names, i) => ({
    id: ids.business(i),
    name: names[brand[i] ?? 0] ?? 'Demo Business',
  }));
  const world: World = {
    seed,
    today,
    todayDay,
    firstDay,
    user: { id: `10${String(hash32(seed, 'user') % 1e9).padStart(9, '0')}04217`, name: 'Demo Analyst' },
    appId: `9${String(hash32(seed, 'app') % 1e8).padStart(8, '0')}31`,
    businesses,
    accounts: [],
    clientAccounts: [],
    nodes: new Map(),
  };

  let key = 0;
  ACCOUNT_SPECS.forEach((spec, index) => {
    const business = businesses[spec.business] as Business;
    const account = makeAccount(world, spec, index, business, brand[spec.business] ?? 0, ids, key++);
    world.accounts.push(account);
    world.nodes.set(`act_${account.accountId}`, { kind: 'account', account });
    const accountRng = Rng.of(seed, 'campaigns', index);
    const count =
      spec.campaigns === 'large' ? largeCount : accountRng.int(spec.campaigns[0], spec.campaigns[1]);
    for (let i = 0; i < count; i++) {
      account.campaigns.push(makeCampaignSkeleton(world, account, ids.next('campaign'), key++, i));
    }
  });

  const eligible: Campaign[] = [];
  for (const account of world.accounts) {
    const connectable =
      account.accountStatus === 1 && account.userTasks.some((t) => t === 'MANAGE' || t === 'ADVERTISE');
    for (const campaign of account.campaigns) {
      campaign.evaluated = connectable && campaign.status === 'ACTIVE';
      if (campaign.evaluated && campaign.startDay <= todayDay - INJECTION_MIN_HISTORY_DAYS)
        eligible.push(campaign);
    }
  }
  assignScenarios(seed, todayDay, eligible);

  for (const account of world.accounts) key = buildAccount(world, account, ids, key);
  addClientAccounts(world, ids, key);
  return world;
}

function buildAccount(world: World, account: Account, ids: IdFactory, key: number): number {
  assignResultKinds(world, account);
  for (const campaign of account.campaigns) {
    key = buildCampaign(world, campaign, ids, key);
    world.nodes.set(campaign.id, { kind: 'campaign', campaign });
    for (const adSet of campaign.adSets) {
      world.nodes.set(adSet.id, { kind: 'adset', adSet });
      for (const ad of adSet.ads) world.nodes.set(ad.id, { kind: 'ad', ad });
    }
    assignDeliveryBlockers(world, account);
  }
  return key;
}

/**
 * Client accounts, built after everything else from their own random streams and the id counters'
 * continuation, so the agency's own accounts, their ids and the scenario ground truth do not move.
 * Their campaigns carry no injected problem and are not evaluated.
 */
function addClientAccounts(world: World, ids: IdFactory, key: number): void {
  CLIENT_ACCOUNT_SPECS.forEach((spec, index) => {
    const owner: Business = { id: ids.business(10 + index), name: spec.owner };
    const accountSpec: AccountSpec = { ...spec, business: -1, names: [spec.name] };
    const account = makeAccount(world, accountSpec, 100 + index, owner, 0, ids, key++, 'client-account');
    account.clientOf = world.businesses[spec.agency] ?? null;
    world.clientAccounts.push(account);
    world.nodes.set(`act_${account.accountId}`, { kind: 'account', account });
    const count = Rng.of(world.seed, 'client-campaigns', index).int(spec.campaigns[0], spec.campaigns[1]);
    for (let i = 0; i < count; i++) {
      account.campaigns.push(makeCampaignSkeleton(world, account, ids.next('campaign'), key++, i));
    }
    key = buildAccount(world, account, ids, key);
  });
}

/** The kinds every account shows first, so each has a lead-gen, an app-install, a custom-conversion
 * and a traffic campaign; later campaigns are mostly purchases. */
const FIRST_KINDS: readonly ResultKind[] = [
  'LEAD_FORM',
  'APP_INSTALL',
  'CUSTOM_CONVERSION',
  'LANDING_PAGE_VIEW',
];
const OTHER_KINDS: readonly ResultKind[] = [...FIRST_KINDS, 'CONVERSATIONS'];
const CUSTOM_CONVERSION_NAMES = ['Booked consultation', 'Qualified signup', 'Quote request', 'Trial started'];

/**
 * Gives some campaigns without an injected problem another result kind (problem campaigns stay
 * purchase campaigns, so scenario ground truth is untouched). Its own random stream: the rest of the
 * world is the same as without kinds.
 */
function assignResultKinds(world: World, account: Account): void {
  const rng = Rng.of(world.seed, 'result-kinds', account.key);
  const candidates = rng.shuffle(account.campaigns.filter((c) => c.scenario === null));
  // Live, connectable campaigns first: the kinds should be seen (and judged) in the product.
  candidates.sort((a, b) => Number(b.evaluated) - Number(a.evaluated));
  candidates.forEach((campaign, index) => {
    const kind = FIRST_KINDS[index] ?? (rng.chance(0.1) ? rng.pick(OTHER_KINDS) : 'PURCHASE');
    campaign.resultKind = kind;
    campaign.objective = OBJECTIVES[kind];
    if (kind === 'CUSTOM_CONVERSION') {
      campaign.customConversion = {
        id: `5${String(hash32(world.seed, 'custom-conversion', campaign.key) % 1e9).padStart(9, '0')}77`,
        name: rng.pick(CUSTOM_CONVERSION_NAMES),
      };
    }
  });
}

const OBJECTIVES: Record<ResultKind, string> = {
  PURCHASE: 'OUTCOME_SALES',
  LEAD_FORM: 'OUTCOME_LEADS',
  APP_INSTALL: 'OUTCOME_APP_PROMOTION',
  CUSTOM_CONVERSION: 'OUTCOME_SALES',
  LANDING_PAGE_VIEW: 'OUTCOME_TRAFFIC',
  CONVERSATIONS: 'OUTCOME_ENGAGEMENT',
};

function weekly(rng: Rng): WeeklyPattern {
  const amp = rng.range(0.6, 1.4);
  const shape = (base: number[]): number[] => base.map((v) => 1 + (v - 1) * amp);
  return {
    // Sunday first. Spend barely moves (budgets cap it); costs and conversion rates do.
    spend: shape([0.97, 1.02, 1.01, 1.0, 1.0, 0.99, 0.98]),
    cpm: shape([0.93, 1.04, 1.03, 1.02, 1.02, 1.0, 0.95]),
    ctr: shape([1.05, 0.98, 0.99, 1.0, 1.0, 0.99, 1.04]),
    cvr: shape([1.1, 1.02, 1.0, 0.98, 0.97, 0.92, 0.98]),
  };
}

function makeAccount(
  world: World,
  spec: AccountSpec,
  index: number,
  business: Business,
  brand: number,
  ids: IdFactory,
  key: number,
  stream = 'account',
): Account {
  const rng = Rng.of(world.seed, stream, index);
  const createdDay = world.firstDay - rng.int(400, 1500);
  return {
    key,
    accountId: ids.account(index),
    name: spec.names[brand] ?? spec.names[0] ?? 'Demo account',
    currency: spec.currency,
    timezone: spec.timezone,
    business,
    accountStatus: spec.accountStatus,
    disableReason: spec.disableReason,
    spendCapMinor: null,
    userTasks: [...spec.userTasks],
    clientOf: null,
    createdTime: zonedEpochSeconds(createdDay, rng.int(9 * 3600, 18 * 3600), spec.timezone),
    fxPerUsd: spec.fxPerUsd * spec.cpmLevel,
    minorPerMajor: minorUnitsPerMajor(spec.currency),
    lastDeliveryDay: spec.accountStatus === 2 ? world.todayDay - 41 : world.todayDay,
    weekly: weekly(rng),
    countries: [...spec.countries],
    campaigns: [],
  };
}

function makeCampaignSkeleton(
  world: World,
  account: Account,
  id: string,
  key: number,
  index: number,
): Campaign {
  const rng = Rng.of(world.seed, 'campaign', key);
  const { todayDay, firstDay } = world;
  const roll = rng.next();
  // The first campaigns of each account are always live so small accounts still carry scenarios.
  let status: ConfiguredStatus = 'ACTIVE';
  if (index >= 3)
    status = roll < 0.8 ? 'ACTIVE' : roll < 0.9 ? 'PAUSED' : roll < 0.96 ? 'ARCHIVED' : 'DELETED';
  let startDay: number;
  let endDay: number | null = null;
  if (status === 'ACTIVE') {
    startDay = rng.chance(0.85) ? rng.int(firstDay - 150, todayDay - 80) : todayDay - rng.int(14, 79);
  } else if (status === 'PAUSED') {
    startDay = rng.int(firstDay - 100, todayDay - 60);
    endDay = rng.int(startDay + 10, todayDay - 3);
  } else {
    startDay = rng.int(firstDay - 220, todayDay - 160);
    endDay = rng.int(startDay + 20, todayDay - 100);
  }
  if (account.lastDeliveryDay < todayDay) {
    startDay = Math.min(startDay, account.lastDeliveryDay - 60);
    endDay = Math.min(endDay ?? account.lastDeliveryDay, account.lastDeliveryDay);
  }
  const tz = account.timezone;
  const createdTime = zonedEpochSeconds(startDay - rng.int(0, 3), rng.int(8 * 3600, 19 * 3600), tz);
  const startTime = Math.max(createdTime, zonedEpochSeconds(startDay, rng.int(0, 10) * 3600, tz));
  const updateDay =
    endDay ?? (rng.chance(0.06) ? todayDay - rng.int(1, 2) : rng.int(startDay, todayDay - 30));
  const updatedTime = Math.max(startTime, zonedEpochSeconds(updateDay, rng.int(8 * 3600, 18 * 3600), tz));
  const country = rng.pick(account.countries);
  return {
    key,
    id,
    account,
    name: `${rng.pick(CAMPAIGN_THEMES)} | ${country} | ${rng.pick(CAMPAIGN_HOOKS)} #${index + 1}`,
    objective: 'OUTCOME_SALES',
    status,
    budgetMode: 'ABO',
    dailyBudgetMinor: null,
    bidStrategy: 'LOWEST_COST_WITHOUT_CAP',
    startDay,
    endDay,
    createdTime,
    startTime,
    updatedTime,
    aovUsd: rng.range(35, 140),
    resultKind: 'PURCHASE',
    customConversion: null,
    scenario: null,
    evaluated: false,
    adSets: [],
  };
}
