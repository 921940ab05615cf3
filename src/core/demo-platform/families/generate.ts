// The problem generator of the scenario families: seeded accounts of several shapes (e-commerce,
// lead-gen, app-install; CBO and ad-set budgets; Advantage+ Shopping and Advantage+ audience; several
// currencies and time zones), with problems whose onset, shape (step or ramp), size, noise and volume
// are drawn from the family's ranges, and account-wide hard controls (tracking outage, market-wide
// CPM rise, a CBO budget doubled two days ago). It produces the engine's own input (the snapshots the
// store would load) plus the ground truth, so accuracy is measured on data the detectors were not
// shaped around. Delivery follows Meta's budget rules: a day spends at most 175% of the budget in
// force and a calendar week (Sunday to Saturday) at most 7× it.

import { addDays, dateRange } from '../../clock';
import type {
  AdData,
  AdSetData,
  CampaignData,
  ChangeRecord,
  DayRow,
  Targeting,
} from '../../diagnostics/types';
import { minorUnitsPerMajor } from '../../money';
import { Rng } from '../prng';
import {
  INJECTED_CATEGORIES,
  MATERIAL,
  type AccountShape,
  type ControlKind,
  type FamilySpec,
  type InjectedCategory,
  type Market,
  type Range,
} from './spec';

export type TruthCategory = InjectedCategory | 'HEALTHY' | 'BELOW_GOAL' | 'BLOCKED';

export interface AdSetTruth {
  id: string;
  name: string;
  advantageAudience: boolean;
  bidStrategy: 'LOWEST_COST_WITHOUT_CAP' | 'COST_CAP' | 'LOWEST_COST_WITH_BID_CAP';
  /** Daily budget in micros (ad-set budgets only). */
  dailyBudget: number | null;
}

/** The real structure of a campaign, which every recommendation must fit. */
export interface CampaignStructure {
  budget: 'CBO' | 'ABO';
  advantageShopping: boolean;
  /** Campaign daily budget in micros (CBO). */
  dailyBudget: number | null;
  adSets: AdSetTruth[];
  /** Every ad disapproved: nothing delivers until it is fixed. */
  blocked: boolean;
}

export interface CampaignTruth {
  campaignId: string;
  name: string;
  category: TruthCategory;
  /** The true effect size (share), or null for healthy campaigns. */
  effect: number | null;
  /**
   * The second size drawn, when the category has one: fatigue's frequency rise, saturation's CPM
   * rise, overlap's share of budget unspent (ad-set budgets only).
   */
  effect2: number | null;
  /** At or above the category's material line (media-buying practice, not the engine's thresholds). */
  material: boolean;
  shape: 'step' | 'ramp' | null;
  since: string | null;
  /** The ad set the problem lives on, when it lives on one. */
  adSetId: string | null;
  /** Overlap across campaigns: the other campaign. */
  otherCampaignId: string | null;
  goal: { kind: 'CPA' | 'ROAS'; target: number; actualVsTarget: number } | null;
  structure: CampaignStructure;
}

export interface AccountTruth {
  accountId: string;
  name: string;
  shape: AccountShape;
  currency: string;
  timezone: string;
  control: ControlKind | null;
  /** Size of the control's effect (share lost, CPM rise, budget factor). */
  controlEffect: number | null;
  controlSince: string | null;
  /** The campaign whose budget changed (BUDGET_CHANGE). */
  changedCampaignId: string | null;
  campaigns: CampaignTruth[];
}

export interface GeneratedAccount {
  account: { id: string; name: string; currency: string };
  campaigns: CampaignData[];
  truth: AccountTruth;
}

export interface GeneratedFamily {
  spec: FamilySpec;
  seed: number;
  from: string;
  to: string;
  accounts: GeneratedAccount[];
}

const MICROS = 1_000_000;
const BASELINE_DAYS = 28;
/** Days of history before the baseline, so launches and edits have a past. */
const LEAD_DAYS = 14;

const draw = (rng: Rng, r: Range): number => rng.range(r[0], r[1]);
const drawInt = (rng: Rng, r: Range): number => rng.int(r[0], r[1]);

function weighted<T>(rng: Rng, items: ReadonlyArray<readonly [T, number]>): T {
  const total = items.reduce((a, [, w]) => a + w, 0);
  let x = rng.next() * total;
  for (const [item, w] of items) {
    x -= w;
    if (x <= 0) return item;
  }
  return (items.at(-1) as readonly [T, number])[0];
}

/** Day-of-week multipliers, Sunday first. */
const WEEKDAY = {
  cpm: [0.94, 1.04, 1.03, 1.02, 1.01, 1.0, 0.96],
  cvr: [1.08, 1.02, 1.0, 0.98, 0.98, 0.94, 0.99],
};
const dow = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay();

interface Effect {
  category: InjectedCategory;
  since: string;
  ramp: number;
  size: number;
  size2: number;
}

/** Progress of an effect on a day: 0 before its onset, ramping to 1. */
function progress(e: { since: string; ramp: number } | null, date: string): number {
  if (!e || date < e.since) return 0;
  const days = dateRange(e.since, date).length;
  return Math.min(1, days / e.ramp);
}

interface SimAd {
  id: string;
  name: string;
  weight: number;
  ctrMod: number;
  cvrMod: number;
  disapprovedFrom: string | null;
  daily: Map<string, DayRow>;
}

interface SimAdSet {
  id: string;
  name: string;
  targeting: Targeting;
  truth: AdSetTruth;
  startDate: string;
  lastEdit: string;
  cpmUsd: number;
  linkCtr: number;
  clickRatio: number;
  cvr: number;
  freq: number;
  weight: number;
  /** Cost or bid cap over the running cost per result. */
  capHeadroom: number;
  /** Budget (micros) before `budgetChange.date`, when it changed. */
  budgetChange: { date: string; before: number } | null;
  learning: { status: string; conversions: number } | null;
  effect: Effect | null;
  /** The overlap pair's effect (both sides carry it). */
  overlap: Effect | null;
  ads: SimAd[];
  daily: Map<string, DayRow>;
}

interface SimCampaign {
  id: string;
  name: string;
  objective: string;
  resultType: string;
  /** Account currency units per USD. */
  fx: number;
  structure: CampaignStructure;
  budgetChange: { date: string; before: number } | null;
  util: number;
  burst: boolean;
  effect: Effect | null;
  adSets: SimAdSet[];
  truth: CampaignTruth;
  daily: Map<string, DayRow>;
}

const RESULT: Record<AccountShape, { resultType: string; objective: string; goal: string; event: string }> = {
  ECOMMERCE: {
    resultType: 'PURCHASE',
    objective: 'OUTCOME_SALES',
    goal: 'OFFSITE_CONVERSIONS',
    event: 'PURCHASE',
  },
  LEAD_GEN: { resultType: 'LEAD', objective: 'OUTCOME_LEADS', goal: 'LEAD_GENERATION', event: 'LEAD' },
  APP_INSTALL: {
    resultType: 'APP_INSTALL',
    objective: 'OUTCOME_APP_PROMOTION',
    goal: 'APP_INSTALLS',
    event: '',
  },
};

const THEMES = ['Spring Sale', 'Evergreen', 'Prospecting', 'Retargeting', 'New Arrivals', 'Brand', 'Bundle'];

class Ids {
  private n = 0;
  constructor(private readonly prefix: string) {}
  next(kind: 'camp' | 'adset' | 'ad'): string {
    this.n += 1;
    return `${kind}_${this.prefix}${String(this.n).padStart(5, '0')}`;
  }
}

/** Every account of one seed of a family: ordinary accounts, then the controls. */
export function generateFamily(spec: FamilySpec, seed: number): GeneratedFamily {
  const to = spec.today;
  const from = addDays(to, -(spec.rangeDays - 1));
  const accounts: GeneratedAccount[] = [];
  const kinds: (ControlKind | null)[] = Array.from({ length: spec.accountsPerSeed }, () => null);
  for (const kind of ['TRACKING_OUTAGE', 'MARKET_SHIFT', 'BUDGET_CHANGE'] as const)
    for (let i = 0; i < spec.controls.perSeed[kind]; i++) kinds.push(kind);
  kinds.forEach((control, index) => accounts.push(generateAccount(spec, seed, index, control, from, to)));
  return { spec, seed, from, to, accounts };
}

function generateAccount(
  spec: FamilySpec,
  seed: number,
  index: number,
  control: ControlKind | null,
  from: string,
  to: string,
): GeneratedAccount {
  const rng = Rng.of(seed, spec.name, 'account', index);
  // Every seed has every shape: the first accounts take them in turn, the rest follow the mix.
  const drawn = weighted(rng, spec.shapes);
  const shape: AccountShape =
    control === 'BUDGET_CHANGE' ? 'ECOMMERCE' : control === null ? (spec.shapes[index]?.[0] ?? drawn) : drawn;
  const market = rng.pick(spec.markets);
  const accountId = `act_${spec.name === 'tuning' ? 't' : 'h'}${seed}x${index}`;
  const name = `${market.countries[0] ?? ''} ${shape.toLowerCase().replace('_', '-')} ${index + 1}`;
  const ids = new Ids(`${seed}${index}x`);
  const first = addDays(from, -(BASELINE_DAYS + LEAD_DAYS));
  const dates = dateRange(first, to);
  const cpaUsd = draw(rng, spec.cpaUsd[shape]);
  const noise = draw(rng, spec.noise);
  const count = drawInt(rng, spec.campaignsPerAccount);

  const campaigns: SimCampaign[] = [];
  for (let i = 0; i < count; i++) {
    campaigns.push(makeCampaign(spec, rng, ids, shape, market, cpaUsd, i, control === null, from, to, first));
  }
  if (control === null) injectOverlaps(spec, rng, ids, campaigns, market, cpaUsd, from, to);

  // Account-wide controls.
  let controlEffect: number | null = null;
  let controlSince: string | null = null;
  let changed: SimCampaign | null = null;
  let tracking: { since: string; loss: number } | null = null;
  let marketShift: { since: string; ramp: number; rise: number } | null = null;
  if (control === 'TRACKING_OUTAGE') {
    controlEffect = draw(rng, spec.controls.trackingLoss);
    controlSince = addDays(to, -drawInt(rng, spec.controls.trackingOnsetDaysAgo));
    tracking = { since: controlSince, loss: controlEffect };
  } else if (control === 'MARKET_SHIFT') {
    controlEffect = draw(rng, spec.controls.marketCpmRise);
    controlSince = addDays(to, -drawInt(rng, spec.controls.marketOnsetDaysAgo));
    marketShift = { since: controlSince, ramp: rng.int(1, 4), rise: controlEffect };
  } else if (control === 'BUDGET_CHANGE') {
    changed = campaigns.find((c) => c.structure.budget === 'CBO' && !c.structure.blocked) ?? null;
    if (changed && changed.structure.dailyBudget !== null) {
      controlEffect = draw(rng, spec.controls.budgetFactor);
      controlSince = addDays(to, -drawInt(rng, spec.controls.budgetChangeDaysAgo));
      const before = changed.structure.dailyBudget;
      changed.structure.dailyBudget = Math.round((before * controlEffect) / MICROS) * MICROS;
      changed.budgetChange = { date: controlSince, before };
    }
  }

  const minor = minorUnitsPerMajor(market.currency);
  const out: CampaignData[] = [];
  for (const c of campaigns) {
    simulate(c, dates, to, noise, seed, tracking, marketShift, shape);
    finishTruth(c, from, to);
    out.push(toCampaignData(c, accountId, market, minor, to, first));
  }
  const truth: AccountTruth = {
    accountId,
    name,
    shape,
    currency: market.currency,
    timezone: market.timezone,
    control,
    controlEffect,
    controlSince,
    changedCampaignId: changed?.id ?? null,
    campaigns: campaigns.map((c) => c.truth),
  };
  return { account: { id: accountId, name, currency: market.currency }, campaigns: out, truth };
}

function broadTargeting(rng: Rng, market: Market, advantage: boolean): Targeting {
  const countries = advantage ? [...market.countries] : [rng.pick(market.countries)];
  return { countries, ageMin: 18, ageMax: 65, genders: ['all'], audiences: [], interests: [] };
}

/** Disjoint cells (age bands) so that ordinary ad sets of a campaign do not overlap. */
function cellTargeting(
  market: Market,
  country: string,
  i: number,
  n: number,
  campaignIndex: number,
): Targeting {
  const span = Math.floor(48 / n);
  const min = 18 + i * span;
  const max = i === n - 1 ? 65 : min + span - 1;
  // Campaigns of one account target different countries or disjoint interests, so they do not overlap.
  return {
    countries: [country],
    ageMin: min,
    ageMax: max,
    genders: ['all'],
    audiences: [],
    interests: [`${market.currency}-interest-${campaignIndex}`],
  };
}

function makeCampaign(
  spec: FamilySpec,
  rng: Rng,
  ids: Ids,
  shape: AccountShape,
  market: Market,
  cpaUsd: number,
  index: number,
  ordinary: boolean,
  from: string,
  to: string,
  first: string,
): SimCampaign {
  const id = ids.next('camp');
  const r = RESULT[shape];
  const advantageShopping = shape === 'ECOMMERCE' && rng.chance(spec.advantageShoppingShare);
  const cbo = advantageShopping || rng.chance(spec.cboShare);
  const budgetUsd = draw(rng, spec.dailyBudgetUsd);
  const budget = Math.max(1, Math.round(budgetUsd * market.fxPerUsd)) * MICROS;
  const category: InjectedCategory | null =
    ordinary && rng.chance(spec.problemShare)
      ? weighted(
          rng,
          INJECTED_CATEGORIES.map((c) => [c, spec.categoryMix[c]] as const),
        )
      : null;
  const blocked = ordinary && category === null && rng.chance(spec.blockedShare);
  const n = advantageShopping ? 1 : drawInt(rng, spec.adSetsPerCampaign);
  const country = rng.pick(market.countries);
  const campaignCpa = cpaUsd * rng.lognormal(0.2);
  const adSets: SimAdSet[] = [];
  for (let i = 0; i < n; i++) {
    const advantageAudience = !advantageShopping && rng.chance(spec.advantageAudienceShare);
    const roll = rng.next();
    const bidStrategy =
      advantageShopping || roll >= spec.costCapShare + spec.bidCapShare
        ? 'LOWEST_COST_WITHOUT_CAP'
        : roll < spec.costCapShare
          ? 'COST_CAP'
          : 'LOWEST_COST_WITH_BID_CAP';
    const weight = rng.lognormal(0.3);
    const targeting =
      advantageShopping || advantageAudience
        ? broadTargeting(rng, market, advantageShopping)
        : cellTargeting(market, country, i, n, index);
    adSets.push(
      makeAdSet(
        rng,
        ids,
        `AS${i + 1} ${targeting.countries.join('+')} ${targeting.ageMin}-${targeting.ageMax}`,
        targeting,
        {
          advantageAudience,
          bidStrategy,
          cpaUsd: campaignCpa,
          weight,
          start: addDays(first, -rng.int(0, 60)),
        },
      ),
    );
  }
  const weights = adSets.reduce((a, s) => a + s.weight, 0);
  if (!cbo)
    for (const s of adSets)
      s.truth.dailyBudget = Math.max(1, Math.round((budget * s.weight) / weights / MICROS)) * MICROS;
  const name = `${rng.pick(THEMES)} | ${country} | ${advantageShopping ? 'Advantage+ Shopping' : cbo ? 'CBO' : 'ABO'} #${index + 1}`;
  const structure: CampaignStructure = {
    budget: cbo ? 'CBO' : 'ABO',
    advantageShopping,
    dailyBudget: cbo ? budget : null,
    adSets: adSets.map((s) => s.truth),
    blocked,
  };
  const campaign: SimCampaign = {
    id,
    name,
    objective: r.objective,
    resultType: r.resultType,
    fx: market.fxPerUsd,
    structure,
    budgetChange: null,
    util: rng.range(0.88, 0.97),
    burst: ordinary && category === null && rng.chance(spec.burstShare),
    effect: null,
    adSets,
    truth: {
      campaignId: id,
      name,
      category: blocked ? 'BLOCKED' : 'HEALTHY',
      effect: null,
      effect2: null,
      material: false,
      shape: null,
      since: null,
      adSetId: null,
      otherCampaignId: null,
      goal: null,
      structure,
    },
    daily: new Map(),
  };
  if (blocked) {
    const since = addDays(to, -rng.int(3, 6));
    for (const s of adSets) for (const ad of s.ads) ad.disapprovedFrom = since;
    campaign.truth.since = since;
  }
  if (category && category !== 'AUCTION_OVERLAP')
    injectProblem(spec, rng, ids, campaign, category, market, campaignCpa, from, to);
  if (category === 'AUCTION_OVERLAP') campaign.truth.category = 'AUCTION_OVERLAP'; // paired in injectOverlaps
  // Goals on ordinary accounts only: a control account's campaigns are all at their baseline.
  if (ordinary && campaign.truth.category === 'HEALTHY' && rng.chance(spec.goalShare)) {
    const below = rng.chance(spec.belowGoalShare);
    // The goal relative to the campaign's real cost per result: met (target above it) or missed.
    const actualVsTarget = below ? rng.range(1.35, 2) : rng.range(0.6, 0.9);
    const kind = shape === 'ECOMMERCE' && rng.chance(0.5) ? 'ROAS' : 'CPA';
    campaign.truth.goal = { kind, target: actualVsTarget, actualVsTarget };
    if (below) campaign.truth.category = 'BELOW_GOAL';
  }
  return campaign;
}

function makeAdSet(
  rng: Rng,
  ids: Ids,
  name: string,
  targeting: Targeting,
  o: {
    advantageAudience: boolean;
    bidStrategy: AdSetTruth['bidStrategy'];
    cpaUsd: number;
    weight: number;
    start: string;
  },
): SimAdSet {
  const id = ids.next('adset');
  const linkCtr = rng.range(0.007, 0.016);
  const cpmUsd = rng.range(7, 16);
  // Conversion rate per link click that gives the ad set its cost per result.
  const cvr = Math.min(0.6, cpmUsd / 1000 / (linkCtr * o.cpaUsd * rng.lognormal(0.1)));
  const ads: SimAd[] = [];
  const nAds = rng.int(2, 4);
  for (let i = 0; i < nAds; i++) {
    ads.push({
      id: ids.next('ad'),
      name: `${rng.pick(['Video', 'Carousel', 'Image', 'UGC'])} v${i + 1}`,
      weight: rng.lognormal(0.5),
      ctrMod: rng.lognormal(0.1),
      cvrMod: rng.lognormal(0.08),
      disapprovedFrom: null,
      daily: new Map(),
    });
  }
  return {
    id,
    name,
    targeting,
    truth: {
      id,
      name,
      advantageAudience: o.advantageAudience,
      bidStrategy: o.bidStrategy,
      dailyBudget: null,
    },
    startDate: o.start,
    lastEdit: o.start,
    cpmUsd,
    linkCtr,
    clickRatio: rng.range(1.3, 2.0),
    cvr,
    freq: rng.range(1.05, 1.4),
    weight: o.weight,
    capHeadroom: rng.range(1.1, 1.5),
    budgetChange: null,
    learning: null,
    effect: null,
    overlap: null,
    ads,
    daily: new Map(),
  };
}

function drawEffect(
  spec: FamilySpec,
  rng: Rng,
  category: InjectedCategory,
  to: string,
): Omit<Effect, 'size' | 'size2'> {
  const since = addDays(to, -drawInt(rng, spec.onsetDaysAgo));
  const ramp = rng.chance(spec.stepShare) ? 1 : drawInt(rng, spec.rampDays);
  return { category, since, ramp };
}

function injectProblem(
  spec: FamilySpec,
  rng: Rng,
  ids: Ids,
  c: SimCampaign,
  category: InjectedCategory,
  market: Market,
  cpaUsd: number,
  from: string,
  to: string,
): void {
  const base = drawEffect(spec, rng, category, to);
  const e = spec.effect;
  const target = rng.pick(c.adSets);
  let effect: Effect;
  let size: number;
  let adSetId: string | null = target.id;
  switch (category) {
    case 'CREATIVE_FATIGUE':
      effect = { ...base, size: draw(rng, e.fatigueCtrDrop), size2: draw(rng, e.fatigueFrequencyRise) };
      target.effect = effect;
      size = effect.size;
      break;
    case 'AUDIENCE_SATURATION':
      effect = { ...base, size: draw(rng, e.saturationFrequencyRise), size2: draw(rng, e.saturationCpmRise) };
      target.effect = effect;
      size = effect.size;
      break;
    case 'PACING_ISSUE':
      effect = { ...base, size: draw(rng, e.pacingShare), size2: 0 };
      c.effect = effect;
      size = 1 - effect.size;
      adSetId = null;
      break;
    case 'CPA_DEGRADATION':
      effect = { ...base, size: draw(rng, e.cpaRise), size2: 0 };
      c.effect = effect;
      size = effect.size;
      adSetId = null;
      break;
    case 'LEARNING_PHASE_STALL': {
      // A new ad set launched on `since` with a budget too small for 50 results a week.
      const share = draw(rng, e.learningShare);
      effect = { ...base, ramp: 1, size: share, size2: 0 };
      const name = `AS${c.adSets.length + 1} new test ${rng.pick(market.countries)}`;
      const adSet = makeAdSet(
        rng,
        ids,
        name,
        {
          countries: [rng.pick(market.countries)],
          ageMin: 25,
          ageMax: 54,
          genders: ['all'],
          audiences: [`lookalike-${c.id}`],
          interests: [],
        },
        {
          advantageAudience: false,
          bidStrategy: 'LOWEST_COST_WITHOUT_CAP',
          cpaUsd,
          weight: 0.3,
          start: effect.since,
        },
      );
      adSet.lastEdit = effect.since;
      adSet.effect = effect;
      const weeklyCost = ((50 * share) / 7) * cpaUsd * market.fxPerUsd;
      if (c.structure.budget === 'ABO')
        adSet.truth.dailyBudget = Math.max(1, Math.round(weeklyCost)) * MICROS;
      else {
        // In a CBO campaign the new ad set gets the small share Meta gives an unproven ad set.
        adSet.weight =
          ((weeklyCost * MICROS) / Math.max(1, c.structure.dailyBudget ?? 1)) *
          c.adSets.reduce((a, s) => a + s.weight, 0);
      }
      adSet.learning = { status: rng.chance(0.6) ? 'FAIL' : 'LEARNING', conversions: 0 };
      c.adSets.push(adSet);
      c.structure.adSets.push(adSet.truth);
      size = 1 - share;
      adSetId = adSet.id;
      break;
    }
    default:
      return;
  }
  c.truth = {
    ...c.truth,
    category,
    effect: size,
    effect2: category === 'CREATIVE_FATIGUE' || category === 'AUDIENCE_SATURATION' ? effect.size2 : null,
    material: size >= MATERIAL[category].min,
    shape: effect.ramp === 1 ? 'step' : 'ramp',
    since: effect.since,
    adSetId,
  };
  void from;
}

/** Overlap pairs: a new ad set duplicating an existing audience, in the same campaign or another. */
function injectOverlaps(
  spec: FamilySpec,
  rng: Rng,
  ids: Ids,
  campaigns: SimCampaign[],
  market: Market,
  cpaUsd: number,
  _from: string,
  to: string,
): void {
  for (const c of campaigns) {
    if (c.truth.category !== 'AUCTION_OVERLAP') continue;
    const base = drawEffect(spec, rng, 'AUCTION_OVERLAP', to);
    const effect: Effect = {
      ...base,
      size: draw(rng, spec.effect.overlapCpmRise),
      size2: draw(rng, spec.effect.overlapUnderspend),
    };
    const existing = c.adSets.find((s) => !s.truth.advantageAudience) ?? (c.adSets[0] as SimAdSet);
    const others = campaigns.filter(
      (o) =>
        o !== c &&
        o.truth.category === 'HEALTHY' &&
        !o.structure.advantageShopping &&
        o.structure.budget === c.structure.budget,
    );
    const across = others.length > 0 && rng.chance(spec.effect.overlapAcrossCampaigns);
    const home = across ? rng.pick(others) : c;
    const t = existing.targeting;
    const dup = makeAdSet(
      rng,
      ids,
      `AS${home.adSets.length + 1} ${t.countries.join('+')} ${t.ageMin + 2}-${t.ageMax} dup`,
      { ...t, ageMin: Math.min(t.ageMax - 5, t.ageMin + rng.int(0, 3)), interests: [...t.interests] },
      {
        advantageAudience: false,
        bidStrategy: 'LOWEST_COST_WITHOUT_CAP',
        cpaUsd,
        weight: existing.weight,
        start: effect.since,
      },
    );
    dup.lastEdit = effect.since;
    dup.learning = { status: 'SUCCESS', conversions: 60 };
    dup.overlap = effect;
    existing.overlap = effect;
    if (home.structure.budget === 'ABO') dup.truth.dailyBudget = existing.truth.dailyBudget;
    home.adSets.push(dup);
    home.structure.adSets.push(dup.truth);
    const size = Math.max(effect.size, home.structure.budget === 'ABO' ? effect.size2 : 0);
    const truth = {
      category: 'AUCTION_OVERLAP' as const,
      effect: size,
      effect2: effect.size2,
      material: size >= MATERIAL.AUCTION_OVERLAP.min,
      shape: effect.ramp === 1 ? ('step' as const) : ('ramp' as const),
      since: effect.since,
    };
    c.truth = {
      ...c.truth,
      ...truth,
      adSetId: existing.id,
      otherCampaignId: across ? home.id : null,
      goal: null,
    };
    if (across) home.truth = { ...home.truth, ...truth, adSetId: dup.id, otherCampaignId: c.id, goal: null };
  }
}

/** Budget in force (micros) of a budget owner on a date. */
function budgetOn(current: number, change: { date: string; before: number } | null, date: string): number {
  return change && date < change.date ? change.before : current;
}

function simulate(
  c: SimCampaign,
  dates: string[],
  to: string,
  noise: number,
  seed: number,
  tracking: { since: string; loss: number } | null,
  market: { since: string; ramp: number; rise: number } | null,
  shape: AccountShape,
): void {
  // Budget owners: the campaign (CBO) or each ad set (ABO); spend is drawn per owner, capped by Meta's rules.
  const owners: { budget: (date: string) => number; members: SimAdSet[]; util: (date: string) => number }[] =
    c.structure.budget === 'CBO'
      ? [
          {
            budget: (d) => budgetOn(c.structure.dailyBudget ?? 0, c.budgetChange, d),
            members: c.adSets,
            util: (d) => c.util * pacingFactor(c, d),
          },
        ]
      : c.adSets.map((s) => ({
          budget: (d: string) => budgetOn(s.truth.dailyBudget ?? 0, s.budgetChange, d),
          members: [s],
          util: (d: string) =>
            c.util * pacingFactor(c, d) * (1 - progress(s.overlap, d) * (s.overlap?.size2 ?? 0)),
        }));
  for (const owner of owners) {
    let weekSpent = 0;
    const ownerRng = Rng.of(seed, 'owner', owner.members[0]?.id ?? c.id);
    for (const date of dates) {
      if (dow(date) === 0) weekSpent = 0;
      const budget = owner.budget(date);
      const live = owner.members.filter(
        (s) => s.startDate <= date && s.ads.some((a) => !a.disapprovedFrom || date < a.disapprovedFrom),
      );
      if (live.length === 0 || budget <= 0) continue;
      let util = owner.util(date) * ownerRng.lognormal(0.05);
      if (c.burst && ownerRng.chance(0.2)) util *= ownerRng.range(1.3, 1.7);
      // Meta ramps a raised budget in over a day or two.
      if (c.budgetChange && date >= c.budgetChange.date) util *= date === c.budgetChange.date ? 0.75 : 0.92;
      let spend = Math.min(budget * util, 1.75 * budget, Math.max(0, 7 * budget - weekSpent));
      if (date === to) spend *= 0.45;
      weekSpent += spend;
      // Split among the live ad sets by weight (CBO: with daily noise, as Meta moves money).
      const shares = live.map((s) => s.weight * (live.length > 1 ? ownerRng.lognormal(0.12) : 1));
      const total = shares.reduce((a, b) => a + b, 0);
      live.forEach((s, i) => {
        dayOfAdSet(c, s, date, (spend * (shares[i] ?? 0)) / total, to, noise, seed, tracking, market, shape);
      });
    }
  }
  for (const s of c.adSets) {
    for (const [date, row] of s.daily) addRow(c.daily, date, row);
    if (!s.learning) s.learning = { status: 'SUCCESS', conversions: 60 };
    if (s.learning.status !== 'SUCCESS') {
      s.learning.conversions = dateRange(s.lastEdit, to).reduce(
        (a, d) => a + (s.daily.get(d)?.conversions ?? 0),
        0,
      );
    }
  }
}

function pacingFactor(c: SimCampaign, date: string): number {
  const e = c.effect;
  if (!e || e.category !== 'PACING_ISSUE') return 1;
  return 1 + progress(e, date) * (e.size / c.util - 1);
}

function addRow(target: Map<string, DayRow>, date: string, row: DayRow): void {
  const t = target.get(date);
  if (!t) {
    target.set(date, { ...row });
    return;
  }
  t.spend += row.spend;
  t.impressions += row.impressions;
  t.clicks += row.clicks;
  t.linkClicks += row.linkClicks;
  t.conversions += row.conversions;
  t.revenue += row.revenue;
  t.reach += row.reach;
  t.frequency = t.reach > 0 ? t.impressions / t.reach : 0;
}

function dayOfAdSet(
  c: SimCampaign,
  s: SimAdSet,
  date: string,
  spend: number,
  to: string,
  noise: number,
  seed: number,
  tracking: { since: string; loss: number } | null,
  market: { since: string; ramp: number; rise: number } | null,
  shape: AccountShape,
): void {
  const rng = Rng.of(seed, 'day', s.id, date);
  const e = s.effect;
  const p = progress(e, date);
  const ce = c.effect;
  const cp = progress(ce, date);
  let cpmMul = 1;
  let freqMul = 1;
  let ctrMul = 1;
  let cvrMul = 1;
  if (e?.category === 'CREATIVE_FATIGUE') {
    ctrMul *= 1 - p * e.size;
    freqMul *= 1 + p * e.size2;
    cvrMul *= 1 - 0.05 * p;
  } else if (e?.category === 'AUDIENCE_SATURATION') {
    freqMul *= 1 + p * e.size;
    cpmMul *= 1 + p * e.size2;
    ctrMul *= 1 - 0.05 * p;
  } else if (e?.category === 'LEARNING_PHASE_STALL') {
    cvrMul *= rng.lognormal(0.25);
  }
  if (s.overlap) cpmMul *= 1 + progress(s.overlap, date) * s.overlap.size;
  if (ce?.category === 'CPA_DEGRADATION') cvrMul /= 1 + cp * ce.size;
  if (market) cpmMul *= 1 + progress(market, date) * market.rise;
  const wd = dow(date);
  const cpm = s.cpmUsd * (WEEKDAY.cpm[wd] ?? 1) * rng.lognormal(noise) * cpmMul;
  const freq = Math.max(1.01, s.freq * rng.lognormal(0.03) * freqMul);
  const lag = date === to ? 0.7 : date === addDays(to, -1) ? 0.88 : 1;
  const trackedShare = tracking && date >= tracking.since ? 1 - tracking.loss : 1;
  const fxSpend = spend / MICROS; // account currency, major units
  const ads = s.ads.filter((a) => !a.disapprovedFrom || date < a.disapprovedFrom);
  const weights = ads.map((a) => a.weight * rng.lognormal(0.12));
  const total = weights.reduce((x, y) => x + y, 0);
  const row: DayRow = {
    date,
    spend: 0,
    impressions: 0,
    clicks: 0,
    linkClicks: 0,
    conversions: 0,
    revenue: 0,
    reach: 0,
    frequency: 0,
  };
  ads.forEach((ad, i) => {
    const adSpend = Math.round((spend * (weights[i] ?? 0)) / total);
    if (adSpend <= 0) return;
    const impressions = Math.max(
      1,
      Math.round(((fxSpend * ((weights[i] ?? 0) / total)) / (cpm * c.fx)) * 1000),
    );
    const ctr = s.linkCtr * ad.ctrMod * rng.lognormal(noise * 0.6) * ctrMul;
    const linkClicks = Math.min(impressions, rng.poisson(impressions * ctr));
    const clicks = Math.min(impressions, linkClicks + rng.poisson(linkClicks * (s.clickRatio - 1)));
    const cvr = Math.min(
      0.9,
      s.cvr * ad.cvrMod * (WEEKDAY.cvr[wd] ?? 1) * rng.lognormal(noise) * cvrMul * lag,
    );
    const real = rng.poisson(linkClicks * cvr);
    const conversions = trackedShare < 1 ? binomial(rng, real, trackedShare) : real;
    const revenue =
      shape === 'ECOMMERCE' ? Math.round(conversions * aovOf(c) * rng.lognormal(0.15) * MICROS * c.fx) : 0;
    const reach = Math.max(1, Math.round(impressions / (freq * rng.lognormal(0.02))));
    const adRow: DayRow = {
      date,
      spend: adSpend,
      impressions,
      clicks,
      linkClicks,
      conversions,
      revenue,
      reach,
      frequency: impressions / reach,
    };
    ad.daily.set(date, adRow);
    addRow(s.daily as Map<string, DayRow>, date, adRow);
    row.spend += adSpend;
  });
  void row;
}

const aovOf = (c: SimCampaign): number => 40 + (c.id.charCodeAt(c.id.length - 1) % 7) * 15;

function binomial(rng: Rng, n: number, p: number): number {
  let k = 0;
  for (let i = 0; i < n; i++) if (rng.next() < p) k += 1;
  return k;
}

function finishTruth(c: SimCampaign, from: string, to: string): void {
  const goal = c.truth.goal;
  if (!goal) return;
  // The target from the campaign's real cost per result (CPA) or return (ROAS) over the range.
  let spend = 0;
  let results = 0;
  let revenue = 0;
  for (const date of dateRange(from, to)) {
    const row = c.daily.get(date);
    spend += row?.spend ?? 0;
    results += row?.conversions ?? 0;
    revenue += row?.revenue ?? 0;
  }
  if (goal.kind === 'CPA') goal.target = results > 0 ? spend / results / goal.actualVsTarget / MICROS : 0;
  else goal.target = spend > 0 ? (revenue / spend) * goal.actualVsTarget : 0;
}

function toCampaignData(
  c: SimCampaign,
  accountId: string,
  market: Market,
  minor: number,
  to: string,
  first: string,
): CampaignData {
  void minor;
  const adSets: AdSetData[] = c.adSets.map((s) => ({
    id: s.id,
    platformAdSetId: s.id.replace('adset_', ''),
    name: s.name,
    status: 'ACTIVE',
    effectiveStatus: 'ACTIVE',
    dailyBudget: s.truth.dailyBudget,
    lifetimeBudget: null,
    bidStrategy:
      c.structure.budget === 'CBO' ? (c.adSets[0]?.truth.bidStrategy ?? null) : s.truth.bidStrategy,
    bidAmount:
      s.truth.bidStrategy === 'LOWEST_COST_WITHOUT_CAP'
        ? null
        : // A cap sits 10-50% above the ad set's running cost per result.
          Math.max(1, Math.round((s.cpmUsd / 1000 / (s.linkCtr * s.cvr)) * market.fxPerUsd * s.capHeadroom)) *
          MICROS,
    optimizationGoal: RESULT_GOAL.get(c.resultType) ?? 'OFFSITE_CONVERSIONS',
    promotedEvent: c.resultType === 'PURCHASE' ? 'PURCHASE' : c.resultType === 'LEAD' ? 'LEAD' : null,
    resultType: c.resultType,
    // As the Graph API gives it (targeting_automation.advantage_audience), so the engine sees it.
    targeting: { ...s.targeting, advantageAudience: s.truth.advantageAudience },
    learningStatus: s.learning?.status ?? 'SUCCESS',
    learningConversions: s.learning?.conversions ?? 0,
    lastSignificantEditAt: `${s.lastEdit}T10:00:00.000Z`,
    createdTime: `${s.startDate}T09:00:00.000Z`,
    snapshots: [],
    daily: s.daily,
  }));
  const ads: AdData[] = c.adSets.flatMap((s) =>
    s.ads.map((ad) => {
      const disapproved = ad.disapprovedFrom !== null;
      return {
        id: ad.id,
        adSetId: s.id,
        name: ad.name,
        status: 'ACTIVE',
        effectiveStatus: disapproved ? 'DISAPPROVED' : 'ACTIVE',
        createdTime: `${s.startDate}T09:30:00.000Z`,
        daily: ad.daily,
        issues: disapproved
          ? [
              {
                errorCode: 2490085,
                summary: 'Unacceptable business practices',
                message: 'Your ad was rejected under our policies.',
              },
            ]
          : [],
      };
    }),
  );
  const changes: ChangeRecord[] = [];
  if (c.budgetChange && c.structure.dailyBudget !== null) {
    const perMinor = MICROS / minorUnitsPerMajor(market.currency);
    changes.push({
      at: `${c.budgetChange.date}T14:00:00.000Z`,
      changeType: 'BUDGET',
      eventType: 'update_campaign_budget',
      objectType: 'CAMPAIGN',
      adSetId: null,
      adId: null,
      oldValue: String(Math.round(c.budgetChange.before / perMinor)),
      newValue: String(Math.round(c.structure.dailyBudget / perMinor)),
    });
  }
  const goal = c.truth.goal;
  return {
    resultType: c.resultType,
    id: c.id,
    accountId,
    platformCampaignId: c.id.replace('camp_', ''),
    name: c.name,
    status: 'ACTIVE',
    effectiveStatus: 'ACTIVE',
    objective: c.objective,
    // Advantage+ shopping campaigns are told apart by smart_promotion_type, as on the Graph API.
    smartPromotionType: c.structure.advantageShopping ? 'AUTOMATED_SHOPPING_ADS' : null,
    bidStrategy: c.structure.budget === 'CBO' ? (c.adSets[0]?.truth.bidStrategy ?? null) : null,
    dailyBudget: c.structure.dailyBudget,
    lifetimeBudget: null,
    startTime: `${first}T00:00:00.000Z`,
    stopTime: null,
    targetCpa: goal?.kind === 'CPA' ? Math.round(goal.target * MICROS) : null,
    // The analyst's goal as the app stores it (goals table), judged by goal-judgement.ts.
    goal: goal ? { kind: goal.kind, target: goal.target, source: 'campaign' } : null,
    currency: market.currency,
    timezone: market.timezone,
    adSets,
    ads,
    daily: c.daily,
    account: { status: 'active', disableReason: 0, spendCap: null, amountSpent: null },
    changes,
  };
  void to;
}

const RESULT_GOAL = new Map(Object.values(RESULT).map((r) => [r.resultType, r.goal]));
