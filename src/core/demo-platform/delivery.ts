// The delivery model: what each ad delivered on each day, as a pure function of (seed, ad set,
// day). Ads are the atomic rows; ad sets, campaigns and accounts are exact sums of their ads, so
// every level of /insights agrees. Scenario effects (see scenarios.ts) bend the model after their
// `since` day and leave everything before it clean.

import { hash32, Rng } from './prng';
import { hasValue, resultCount } from './results';
import { weekday } from './time';
import type { Account, Ad, AdSet, Campaign, World } from './world/types';

/** Counts, with money in the account currency's minor unit (integers, so sums are exact). */
export interface Metrics {
  spend: number;
  impressions: number;
  reach: number;
  clicks: number;
  linkClicks: number;
  landingPageViews: number;
  addToCart: number;
  purchases: number;
  revenue: number;
}

export function emptyMetrics(): Metrics {
  return {
    spend: 0,
    impressions: 0,
    reach: 0,
    clicks: 0,
    linkClicks: 0,
    landingPageViews: 0,
    addToCart: 0,
    purchases: 0,
    revenue: 0,
  };
}

export function addInto(target: Metrics, source: Metrics): Metrics {
  target.spend += source.spend;
  target.impressions += source.impressions;
  target.reach += source.reach;
  target.clicks += source.clicks;
  target.linkClicks += source.linkClicks;
  target.landingPageViews += source.landingPageViews;
  target.addToCart += source.addToCart;
  target.purchases += source.purchases;
  target.revenue += source.revenue;
  return target;
}

export function hasDelivery(m: Metrics): boolean {
  return m.impressions > 0 || m.spend > 0;
}

/** Today is served as a partial day, and the latest conversions are still coming in. */
export const TODAY_SHARE = 0.45;
const CONVERSION_LAG: Record<number, number> = { 0: 0.7, 1: 0.88 };

interface Effects {
  util: number;
  cpm: number;
  ctr: number;
  cvr: number;
  freq: number;
  cpaNoise: number;
}

const NO_EFFECT: Effects = { util: 1, cpm: 1, ctr: 1, cvr: 1, freq: 1, cpaNoise: 0 };

/** What the campaign's scenario does to this ad set on this day (identity before `since`). */
export function scenarioEffects(adSet: AdSet, day: number): Effects {
  const s = adSet.campaign.scenario;
  if (!s || !adSet.role || day < s.since) return NO_EFFECT;
  const p = Math.min(1, (day - s.since + 1) / s.ramp);
  const freqTo = (target: number): number => 1 + p * (Math.max(target / adSet.profile.frequency, 1) - 1);
  switch (s.category) {
    case 'CREATIVE_FATIGUE':
      return {
        ...NO_EFFECT,
        freq: freqTo(s.magnitude2),
        ctr: 1 - p * s.magnitude,
        cpm: 1 + 0.05 * p,
        cvr: 1 - 0.08 * p,
      };
    case 'AUDIENCE_SATURATION':
      return {
        ...NO_EFFECT,
        freq: freqTo(s.magnitude2),
        cpm: 1 + p * s.magnitude,
        ctr: 1 - 0.04 * p,
        cvr: 1 - 0.06 * p,
        util: 1 - 0.05 * p,
      };
    case 'AUCTION_OVERLAP':
      return { ...NO_EFFECT, cpm: 1 + p * s.magnitude, util: 1 - p * s.magnitude2 };
    case 'PACING_ISSUE':
      return { ...NO_EFFECT, util: 1 + p * (s.magnitude / adSet.profile.utilization - 1) };
    case 'CPA_DEGRADATION':
      return { ...NO_EFFECT, cvr: 1 / (1 + p * s.magnitude) };
    case 'LEARNING_PHASE_STALL':
      return { ...NO_EFFECT, cvr: 0.93, cpaNoise: s.magnitude2 };
  }
}

function within(start: number, end: number | null, day: number): boolean {
  return day >= start && (end === null || day <= end);
}

function adDelivers(ad: Ad, day: number): boolean {
  return within(ad.startDay, ad.endDay, day);
}

function adSetDelivers(adSet: AdSet, day: number): boolean {
  const campaign = adSet.campaign;
  return (
    day <= campaign.account.lastDeliveryDay &&
    within(campaign.startDay, campaign.endDay, day) &&
    within(adSet.startDay, adSet.endDay, day) &&
    adSet.ads.some((ad) => adDelivers(ad, day))
  );
}

/**
 * A two-generation cache: O(1) inserts and lookups with bounded memory. (Evicting the oldest key
 * of one big Map one at a time makes V8 skip ever more deleted slots, which gets slow.)
 */
class GenerationalCache<V> {
  private current = new Map<number, V>();
  private previous = new Map<number, V>();

  constructor(private readonly generationSize: number) {}

  get(key: number): V | undefined {
    const hit = this.current.get(key);
    if (hit !== undefined) return hit;
    const old = this.previous.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: number, value: V): void {
    if (this.current.size >= this.generationSize) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(key, value);
  }
}

export class DeliveryModel {
  private adSetCache = new GenerationalCache<Metrics[] | null>(20_000);
  private accountCache = new GenerationalCache<Metrics | null>(20_000);
  private weekCache = new GenerationalCache<number>(20_000);
  /** Results attributed late (a control): ad set key → day → extra results. */
  private readonly late = new Map<number, Map<number, number>>();

  constructor(readonly world: World) {}

  /**
   * Results that arrive late for a past day, as Meta attributes conversions up to 28 days after the
   * click: added to the ad set's first delivering ad, so every level's sums stay exact.
   */
  addLateResults(adSet: AdSet, day: number, results: number): void {
    const days = this.late.get(adSet.key) ?? new Map<number, number>();
    days.set(day, (days.get(day) ?? 0) + results);
    this.late.set(adSet.key, days);
    this.clearCaches();
  }

  clearCaches(): void {
    this.adSetCache = new GenerationalCache<Metrics[] | null>(20_000);
    this.accountCache = new GenerationalCache<Metrics | null>(20_000);
    this.weekCache = new GenerationalCache<number>(20_000);
  }

  private applyLate(adSet: AdSet, day: number, rows: Metrics[]): Metrics[] {
    const extra = this.late.get(adSet.key)?.get(day);
    const row = rows.find((r) => r.spend > 0);
    if (!extra || !row) return rows;
    const campaign = adSet.campaign;
    if (campaign.resultKind === 'LANDING_PAGE_VIEW') row.landingPageViews += extra;
    else row.purchases += extra;
    if (hasValue(campaign.resultKind)) {
      const account = campaign.account;
      row.revenue += Math.round(extra * campaign.aovUsd * account.fxPerUsd * account.minorPerMajor);
    }
    return rows;
  }

  /** Per-ad metrics of an ad set on a day (aligned with adSet.ads), or null without delivery. */
  adSetDay(adSet: AdSet, day: number): Metrics[] | null {
    const { firstDay, todayDay } = this.world;
    if (day < firstDay || day > todayDay) return null;
    const cacheKey = adSet.key * 1024 + (day - firstDay);
    const cached = this.adSetCache.get(cacheKey);
    if (cached !== undefined) return cached;
    const value = adSetDelivers(adSet, day)
      ? this.applyLate(adSet, day, this.computeAdSetDay(adSet, day))
      : null;
    this.adSetCache.set(cacheKey, value);
    return value;
  }

  adDay(ad: Ad, day: number): Metrics | null {
    const rows = this.adSetDay(ad.adSet, day);
    const row = rows?.[ad.adSet.ads.indexOf(ad)];
    return row && hasDelivery(row) ? row : null;
  }

  adSetTotal(adSet: AdSet, day: number): Metrics | null {
    const rows = this.adSetDay(adSet, day);
    if (!rows) return null;
    const total = emptyMetrics();
    for (const row of rows) addInto(total, row);
    return hasDelivery(total) ? total : null;
  }

  campaignDay(campaign: Campaign, day: number): Metrics | null {
    let total: Metrics | null = null;
    for (const adSet of campaign.adSets) {
      const rows = this.adSetDay(adSet, day);
      if (!rows) continue;
      total ??= emptyMetrics();
      for (const row of rows) addInto(total, row);
    }
    return total && hasDelivery(total) ? total : null;
  }

  accountDay(account: Account, day: number): Metrics | null {
    const cacheKey = account.key * 100_000 + day - this.world.firstDay;
    const cached = this.accountCache.get(cacheKey);
    if (cached !== undefined) return cached;
    let total: Metrics | null = null;
    for (const campaign of account.campaigns) {
      const row = this.campaignDay(campaign, day);
      if (row) total = addInto(total ?? emptyMetrics(), row);
    }
    this.accountCache.set(cacheKey, total);
    return total;
  }

  /** Results (optimization events of the campaign's kind) of an ad set over an inclusive day range. */
  results(adSet: AdSet, from: number, to: number): number {
    let sum = 0;
    const kind = adSet.campaign.resultKind;
    for (let day = from; day <= to; day++) {
      for (const row of this.adSetDay(adSet, day) ?? []) sum += resultCount(kind, row);
    }
    return sum;
  }

  private budgetMajor(adSet: AdSet, day: number): number {
    const campaign = adSet.campaign;
    const perMajor = campaign.account.minorPerMajor;
    if (campaign.budgetMode === 'CBO') {
      // Advantage campaign budget: the day's budget flows to the delivering ad sets by weight.
      let mine = 0;
      let all = 0;
      for (const sibling of campaign.adSets) {
        if (!adSetDelivers(sibling, day)) continue;
        const w = sibling.weight * Rng.of(this.world.seed, 'share', sibling.key, day).lognormal(0.1);
        all += w;
        if (sibling === adSet) mine = w;
      }
      return ((campaign.dailyBudgetMinor ?? 0) / perMajor) * (all > 0 ? mine / all : 0);
    }
    const minor =
      adSet.budgetChangeDay !== null && day < adSet.budgetChangeDay && adSet.previousBudgetMinor !== null
        ? adSet.previousBudgetMinor
        : (adSet.dailyBudgetMinor ?? 0);
    return minor / perMajor;
  }

  /** Share of the budget in force an ad set spends on a day (a day may reach 175%); the first draw of its day's stream. */
  private utilization(adSet: AdSet, day: number, rng: Rng): number {
    const campaign = adSet.campaign;
    const weekly = campaign.account.weekly;
    let util =
      adSet.profile.utilization *
      (weekly.spend[weekday(day)] ?? 1) *
      rng.lognormal(0.05) *
      scenarioEffects(adSet, day).util;
    const anomaly = hash32(this.world.seed, 'anomaly', campaign.key, day) / 4294967296;
    if (anomaly < 0.006) util *= 0.5 + anomaly * 40;
    util = Math.min(util, 1.75);
    if (day === this.world.todayDay) util *= TODAY_SHARE;
    return util;
  }

  /** What the ad set would spend on a day before the weekly cap (major units). */
  private plannedSpend(adSet: AdSet, day: number): number {
    if (!adSetDelivers(adSet, day)) return 0;
    return (
      this.budgetMajor(adSet, day) * this.utilization(adSet, day, Rng.of(this.world.seed, adSet.key, day))
    );
  }

  /**
   * Meta's weekly cap: a calendar week (Sunday to Saturday, in the account's time zone) spends at most
   * 7× the daily budget in force. The budget's owner (the campaign under CBO, else the ad set) spends
   * its planned amounts day by day from Sunday; a day that would pass the cap is cut to what is left.
   * Returns the day's factor (1 = not cut).
   */
  private weeklyFactor(adSet: AdSet, day: number): number {
    const campaign = adSet.campaign;
    const cbo = campaign.budgetMode === 'CBO';
    const ownerKey = cbo ? -1 - campaign.key : adSet.key;
    const cacheKey = ownerKey * 1024 + (day - this.world.firstDay + 8);
    const cached = this.weekCache.get(cacheKey);
    if (cached !== undefined) return cached;
    const members = cbo ? campaign.adSets : [adSet];
    const perMajor = campaign.account.minorPerMajor;
    let spent = 0;
    let factor = 1;
    for (let d = day - weekday(day); d <= day; d++) {
      const planned = members.reduce((sum, s) => sum + this.plannedSpend(s, d), 0);
      const budget = cbo ? (campaign.dailyBudgetMinor ?? 0) / perMajor : this.budgetMajor(adSet, d);
      factor = planned > 0 ? Math.min(1, Math.max(0, 7 * budget - spent) / planned) : 1;
      spent += planned * factor;
      this.weekCache.set(ownerKey * 1024 + (d - this.world.firstDay + 8), factor);
    }
    return factor;
  }

  private computeAdSetDay(adSet: AdSet, day: number): Metrics[] {
    const { seed, todayDay } = this.world;
    const campaign = adSet.campaign;
    const account = campaign.account;
    const perMajor = account.minorPerMajor;
    const profile = adSet.profile;
    const rng = Rng.of(seed, adSet.key, day);
    const dow = weekday(day);
    const w = account.weekly;
    const fx = scenarioEffects(adSet, day);

    const util = this.utilization(adSet, day, rng);
    const spendMajor = this.budgetMajor(adSet, day) * util * this.weeklyFactor(adSet, day);

    const drift = 1 + 0.03 * Math.sin((2 * Math.PI * day) / (40 + (campaign.key % 50)) + campaign.key);
    const cpm = profile.cpmUsd * account.fxPerUsd * (w.cpm[dow] ?? 1) * rng.lognormal(0.07) * fx.cpm * drift;
    const freq = Math.max(1.01, profile.frequency * rng.lognormal(0.04) * fx.freq);
    const ctr = profile.ctr * (w.ctr[dow] ?? 1) * rng.lognormal(0.06) * fx.ctr;
    const lag = CONVERSION_LAG[todayDay - day] ?? 1;
    const cvr =
      profile.cvr *
      (w.cvr[dow] ?? 1) *
      rng.lognormal(0.06) *
      fx.cvr *
      lag *
      (fx.cpaNoise > 0 ? rng.lognormal(fx.cpaNoise) : 1);

    const shares = adSet.ads.map((ad) => (adDelivers(ad, day) ? ad.weight * rng.lognormal(0.12) : 0));
    const shareSum = shares.reduce((a, b) => a + b, 0);
    return adSet.ads.map((ad, i) => {
      const m = emptyMetrics();
      const share = shareSum > 0 ? (shares[i] ?? 0) / shareSum : 0;
      m.spend = Math.round(spendMajor * share * perMajor);
      if (m.spend <= 0) {
        m.spend = 0;
        return m;
      }
      const cpmAd = cpm * rng.lognormal(0.03);
      m.impressions = Math.max(1, Math.round((m.spend / perMajor / cpmAd) * 1000));
      m.reach = Math.min(
        m.impressions,
        Math.max(1, Math.round(m.impressions / (freq * rng.lognormal(0.03)))),
      );
      m.clicks = Math.min(m.impressions, rng.poisson(m.impressions * ctr * ad.ctrMod));
      m.linkClicks = Math.min(m.clicks, rng.poisson(m.clicks * profile.linkShare));
      m.landingPageViews = Math.min(m.linkClicks, rng.poisson(m.linkClicks * 0.78));
      m.purchases = Math.min(m.linkClicks, rng.poisson(m.linkClicks * cvr * ad.cvrMod));
      m.addToCart = m.purchases + rng.poisson(m.linkClicks * cvr * 1.8);
      m.revenue = Math.round(
        m.purchases * campaign.aovUsd * account.fxPerUsd * rng.lognormal(0.1) * perMajor,
      );
      return m;
    });
  }
}
