// Every threshold of the diagnostics engine, in one table. docs/diagnostics.md prints this table with
// its sources. "shift" thresholds are magnitudes (smaller = flags earlier) that Andromeda's risk
// appetite scales; "fixed" ones are minimum-data rules and platform facts that no profile changes.
import type { RiskAppetite } from '../../shared/api/diagnostics';

export interface ThresholdSpec {
  value: number;
  unit: string;
  kind: 'shift' | 'fixed';
  meaning: string;
  source: string;
}

export const THRESHOLD_TABLE = {
  // Windows and minimum data (fixed)
  recentDays: {
    value: 7,
    unit: 'days',
    kind: 'fixed',
    meaning:
      'Recent window: the last N days of the range (cost-per-result windows end lagDays earlier, pacing uses the last N complete days)',
    source: 'Variafy 7-day window [70]; alert guidance 7/28-day baselines [113]',
  },
  baselineDays: {
    value: 28,
    unit: 'days',
    kind: 'fixed',
    meaning: 'Reference (baseline) window: the N days before the requested range',
    source: 'Optmyzr ~3-week estimate [25]; 28-day baseline [113]',
  },
  conversionLagDays: {
    value: 2,
    unit: 'days',
    kind: 'fixed',
    meaning: 'Latest days left out of cost-per-result because conversions arrive late',
    source: 'Variafy, datakitten [70][59]',
  },
  learningGraceDays: {
    value: 3,
    unit: 'days',
    kind: 'fixed',
    meaning: 'No judgement of an ad set in its first N days after a significant edit or launch',
    source: 'shuttergen "don’t judge days 1-3" [84]',
  },
  minSpendPerUnit: {
    value: 50,
    unit: 'currency units',
    kind: 'fixed',
    meaning: 'Minimum spend of an entity in a window before it can be judged',
    source: 'Motion $50 per ad [40]; Madgicx "IM" under $10/10 days [14]',
  },
  minImpressions: {
    value: 3000,
    unit: 'impressions',
    kind: 'fixed',
    meaning: 'Minimum impressions of an ad or ad set in each compared window',
    source: 'fatigue code with 10k impressions/7 days [69] (scaled to a 7-day window of a small ad)',
  },
  minConversions: {
    value: 10,
    unit: 'conversions',
    kind: 'fixed',
    meaning: 'Minimum conversions in each window before cost per result is compared',
    source: 'alert guidance: "don’t alert on 3 conversions" [113]',
  },
  minZ: {
    value: 2,
    unit: 'standard deviations',
    kind: 'fixed',
    meaning:
      'A drop in clicks or results must be this many Poisson standard deviations below what the reference rate predicts',
    source: '>2σ rule [114]; "beyond chance" (Variafy) [70]',
  },
  cpaMinZ: {
    value: 3,
    unit: 'standard deviations',
    kind: 'fixed',
    meaning:
      'Cost per result: the shortfall in results must be this many quasi-Poisson standard deviations (dispersion measured on the baseline days)',
    source: '"relaxed" 3σ band [115]; Variafy "beyond chance" [70]',
  },
  requiredLearningConversions: {
    value: 50,
    unit: 'conversions in 7 days',
    kind: 'fixed',
    meaning: 'Optimization events needed to exit learning (Meta returns its own figure when it has one)',
    source: 'Meta Help Center "About the learning phase" [75]',
  },
  // Detection magnitudes (shifted by risk appetite)
  fatigueCtrDrop: {
    value: 0.25,
    unit: 'share',
    kind: 'shift',
    meaning: 'Creative fatigue: CTR of an ad in the recent window at least this far below its reference',
    source:
      'adsmanagement −20% [66], adrow −15-25% decay [67], meta-ads-kit >20% [68], fatigue-alert −30% [57]',
  },
  fatigueDecayCtrDrop: {
    value: 0.2,
    unit: 'share',
    kind: 'shift',
    meaning:
      'Creative fatigue without a frequency rise: CTR of an established ad at least this far below its weeks before the range, beyond 3σ of click noise',
    source: 'adsmanagement −20% [66], meta-ads-kit >20% [68]; adrow −15-25% decay [67]',
  },
  fatigueFrequencyRise: {
    value: 0.1,
    unit: 'share',
    kind: 'shift',
    meaning: 'Creative fatigue: daily frequency of the ad up at least this much (exposure is growing)',
    source: 'frequency-driven decay (N+1)^-0.43 [2]; inbeat/adrow frequency stages [65][67]',
  },
  fatigueCprMultiple: {
    value: 2,
    unit: '× own reference',
    kind: 'shift',
    meaning: 'Creative fatigue (Meta’s own flag): cost per result of the ad at least N× its own reference',
    source: 'Meta "Creative fatigue" delivery status: ≥2× past cost per result [1][2]',
  },
  learningStallDays: {
    value: 7,
    unit: 'days',
    kind: 'shift',
    meaning: 'Learning phase stall: still learning this many days after the last significant edit',
    source: 'meta-ads-pp-cli learning >7 days [52]; Meta 7-day exit window [75]',
  },
  overlapTargeting: {
    value: 0.3,
    unit: 'share (0-1)',
    kind: 'shift',
    meaning: 'Auction overlap: targeting similarity of two active ad sets with the same optimization event',
    source: 'audience overlap <30% [53]; ≥30% overlap = cannibalisation risk [51]',
  },
  overlapCpmRise: {
    value: 0.15,
    unit: 'share',
    kind: 'shift',
    meaning: 'Auction overlap: CPM of the overlapping ad sets up at least this much vs reference',
    source: 'Meta: overlap makes delivery costlier and less predictable [5]; CPM +20-30% fatigue bands [66]',
  },
  overlapUnderspend: {
    value: 0.2,
    unit: 'share of budget',
    kind: 'shift',
    meaning: 'Auction overlap: an overlapping ad set spends at least this share below its budget',
    source: 'Meta: an overlapping ad set "can’t spend its full budget" [5]',
  },
  pacingUnder: {
    value: 0.25,
    unit: 'shortfall share',
    kind: 'shift',
    meaning:
      'Pacing UNDER: average daily spend over a complete week at least this share below the daily budget in force (rate ≤ 0.75)',
    source:
      'a week averages out day-to-day pacing, so a budget three-quarters spent for 7 days is under-delivery a media buyer acts on; <50% critical [91], 3P 50% rule (meta-marketing-api §6.5)',
  },
  pacingOver: {
    value: 0.2,
    unit: 'excess share',
    kind: 'shift',
    meaning: 'Pacing OVER: average daily spend at least this share above the daily budget (rate ≥ 1.2)',
    source:
      'Meta caps a week at 7× the daily budget, so a weekly average >1 is abnormal [87][88]; >120% critical [91]',
  },
  cpaRise: {
    value: 0.25,
    unit: 'share',
    kind: 'shift',
    meaning: 'CPA degradation: recent cost per result at least this far above the target/baseline',
    source: 'Variafy ≥25% (≥40% high) [70]; mapping B.8',
  },
  saturationFrequencyRise: {
    value: 0.2,
    unit: 'share',
    kind: 'shift',
    meaning: 'Audience saturation: ad-set daily frequency up at least this much vs reference',
    source: 'frequency above 2.5-3 with CTR drop 15-25% [103]; FTIR falling [4][102]',
  },
  saturationCpmRise: {
    value: 0.15,
    unit: 'share',
    kind: 'shift',
    meaning: 'Audience saturation: CPM up at least this much (the shrinking pool costs more to reach)',
    source: '"CPM rising with no change in competition" [102]; saturated audiences cost more [103]',
  },
  saturationReachDrop: {
    value: 0.2,
    unit: 'share',
    kind: 'shift',
    meaning: 'Audience saturation: daily reach down at least this much vs reference while spend holds',
    source: '"reach that stops growing while spend holds steady" [103]; FTIR <50% [102]',
  },
  // Account context (read across the account before any campaign is blamed)
  accountShare: {
    value: 0.6,
    unit: 'share of spend',
    kind: 'fixed',
    meaning:
      'Tracking break / market shift: share of the judged campaigns’ spend that must show the same change for it to be the account’s, not a campaign’s',
    source: 'media-buying practice: an account-wide move has an account-wide cause (pixel, CAPI, auction)',
  },
  trackingResultDrop: {
    value: 0.3,
    unit: 'share',
    kind: 'shift',
    meaning:
      'Tracking break: results per link click (a rate relative to the clicks that still arrive) at least this far below the days before, from one day on, as a step on most campaigns at once',
    source:
      'a broken pixel/CAPI event (one of several, a browser or a domain) loses 30-100% of results overnight; the step, the clicks holding and the account-wide share tell it from campaign decay, which is gradual and one campaign at a time [70][113]',
  },
  trafficHold: {
    value: 0.2,
    unit: 'share',
    kind: 'fixed',
    meaning:
      'Tracking break: link clicks and impressions per day may fall at most this much (traffic holds, only the counting stopped)',
    source: 'events manager diagnostics: clicks still arrive when the event stops firing',
  },
  marketCpmShift: {
    value: 0.2,
    unit: 'share',
    kind: 'shift',
    meaning: 'Market shift: account CPM up (or down) at least this much vs the baseline',
    source: 'seasonal CPM swings of 20-50% (Q4, sales events) [66]; CPM +20-30% bands [66]',
  },
  rateHold: {
    value: 0.15,
    unit: 'share',
    kind: 'fixed',
    meaning:
      'Market shift: CTR and conversion rate within this share of the baseline (the audience still responds; only the price moved)',
    source: 'CTR decay bands of −15-25% mark fatigue [67]; below that the creative holds',
  },
} as const satisfies Record<string, ThresholdSpec>;

export type ThresholdKey = keyof typeof THRESHOLD_TABLE;
export type Thresholds = Record<ThresholdKey, number>;

/** How risk appetite scales the "shift" magnitudes: a cautious analyst hears about problems earlier. */
export const APPETITE_FACTOR: Record<RiskAppetite, number> = { LOW: 0.8, MEDIUM: 1, HIGH: 1.25 };

/** The thresholds a profile sees. Day counts are rounded; multiples keep their base of 1. */
export function thresholdsFor(riskAppetite: RiskAppetite): Thresholds {
  const factor = APPETITE_FACTOR[riskAppetite];
  const out = {} as Thresholds;
  for (const [key, spec] of Object.entries(THRESHOLD_TABLE) as [ThresholdKey, ThresholdSpec][]) {
    if (spec.kind === 'fixed') out[key] = spec.value;
    else if (spec.unit === 'days') out[key] = Math.round(spec.value * factor);
    else if (spec.unit.startsWith('×')) out[key] = 1 + (spec.value - 1) * factor;
    else out[key] = Math.min(0.95, spec.value * factor);
  }
  return out;
}

export const DEFAULT_THRESHOLDS: Thresholds = thresholdsFor('MEDIUM');
