// Scenario families: the parameters a problem generator draws accounts, structures and injected
// effects from. A family is data (ranges and mixes), so a second family with other ranges, mixes and
// account shapes can be held out of tuning: only the `tuning` family lives under src/ (the held-out
// one is defined in bench/accuracy and nothing here may name its seeds).

export type Range = readonly [number, number];

export type AccountShape = 'ECOMMERCE' | 'LEAD_GEN' | 'APP_INSTALL';

export type InjectedCategory =
  | 'CREATIVE_FATIGUE'
  | 'LEARNING_PHASE_STALL'
  | 'AUCTION_OVERLAP'
  | 'PACING_ISSUE'
  | 'CPA_DEGRADATION'
  | 'AUDIENCE_SATURATION';

export const INJECTED_CATEGORIES: readonly InjectedCategory[] = [
  'CREATIVE_FATIGUE',
  'LEARNING_PHASE_STALL',
  'AUCTION_OVERLAP',
  'PACING_ISSUE',
  'CPA_DEGRADATION',
  'AUDIENCE_SATURATION',
];

/** Account-wide hard controls: one cause across the account, which must not be blamed on campaigns. */
export type ControlKind = 'TRACKING_OUTAGE' | 'MARKET_SHIFT' | 'BUDGET_CHANGE';

export interface Market {
  currency: string;
  timezone: string;
  /** Currency units per US dollar (the model's economics are in USD). */
  fxPerUsd: number;
  countries: string[];
}

export interface FamilySpec {
  name: string;
  seeds: readonly number[];
  /** Last day of data (partial); the diagnosed range ends here. */
  today: string;
  /** Days diagnosed (the engine reads its baseline before them). */
  rangeDays: number;
  /** Ordinary accounts per seed (controls come on top). */
  accountsPerSeed: number;
  shapes: ReadonlyArray<readonly [AccountShape, number]>;
  markets: readonly Market[];
  campaignsPerAccount: Range;
  adSetsPerCampaign: Range;
  /** Daily budget per campaign in USD: the volume (results a day follow from it and the CPA). */
  dailyBudgetUsd: Range;
  /** Cost per result in USD, per shape. */
  cpaUsd: Record<AccountShape, Range>;
  /** Day-to-day lognormal noise of CPM, CTR and conversion rate. */
  noise: Range;
  cboShare: number;
  /** Share of e-commerce campaigns that are Advantage+ Shopping (CBO, one ad set, no audience). */
  advantageShoppingShare: number;
  /** Share of ad sets with Advantage+ audience on. */
  advantageAudienceShare: number;
  costCapShare: number;
  bidCapShare: number;
  /** Share of campaigns with an injected problem. */
  problemShare: number;
  categoryMix: Record<InjectedCategory, number>;
  /** Days before today an injected problem starts. */
  onsetDaysAgo: Range;
  /** Share of problems that arrive as a step (one day) rather than a ramp. */
  stepShare: number;
  rampDays: Range;
  /** The true effect size per category, drawn uniformly (ranges straddle the detectors' bars). */
  effect: {
    /** CTR drop of the fatigued ad set's ads; its frequency rise is drawn from `fatigueFrequencyRise`. */
    fatigueCtrDrop: Range;
    fatigueFrequencyRise: Range;
    /** Daily frequency rise of the saturating ad set (its reach falls with it). */
    saturationFrequencyRise: Range;
    /** CPM rise that comes with saturation (0 = CPM flat). */
    saturationCpmRise: Range;
    overlapCpmRise: Range;
    /** Share of budget the overlapping ad sets leave unspent. */
    overlapUnderspend: Range;
    /** Share of overlapping pairs placed in two different campaigns of the account. */
    overlapAcrossCampaigns: number;
    /** Spend as a share of the budget in force (under-delivery). */
    pacingShare: Range;
    /** Rise of cost per result through the conversion rate. */
    cpaRise: Range;
    /** Weekly results of a stalled ad set as a share of the 50 Meta needs. */
    learningShare: Range;
  };
  /** Healthy campaigns with a goal: share with a goal, and share of those below it. */
  goalShare: number;
  belowGoalShare: number;
  /** Share of campaigns whose delivery is blocked (every ad disapproved) for the last days. */
  blockedShare: number;
  /** Share of campaigns spending over budget on some days within Meta's rules (≤175% a day, ≤7× a week). */
  burstShare: number;
  controls: {
    perSeed: Record<ControlKind, number>;
    trackingLoss: Range;
    trackingOnsetDaysAgo: Range;
    marketCpmRise: Range;
    marketOnsetDaysAgo: Range;
    budgetFactor: Range;
    budgetChangeDaysAgo: Range;
  };
}

/**
 * Where an injected effect becomes material to a media buyer, independent of the engine's thresholds
 * (rules of thumb from practice). Effects below it are "mild": recorded with their true size, neither
 * required (recall) nor counted against precision when found.
 */
export const MATERIAL: Record<InjectedCategory, { min: number; meaning: string }> = {
  CREATIVE_FATIGUE: { min: 0.2, meaning: 'CTR down ≥20% with frequency climbing' },
  AUDIENCE_SATURATION: { min: 0.3, meaning: 'daily frequency up ≥30% (daily reach down with it)' },
  AUCTION_OVERLAP: { min: 0.2, meaning: 'CPM up ≥20% or ≥20% of budget unspent on overlapping ad sets' },
  PACING_ISSUE: { min: 0.3, meaning: 'spending ≤70% of the budget in force for a week' },
  CPA_DEGRADATION: { min: 0.3, meaning: 'cost per result up ≥30%' },
  LEARNING_PHASE_STALL: { min: 0.5, meaning: 'learning for 7+ days at ≤50% of the results needed to exit' },
};

/** The family engineers may look at and tune on. */
export const TUNING_FAMILY: FamilySpec = {
  name: 'tuning',
  seeds: [11, 12, 13, 14, 15, 16],
  today: '2026-03-15',
  rangeDays: 21,
  accountsPerSeed: 6,
  shapes: [
    ['ECOMMERCE', 3],
    ['LEAD_GEN', 2],
    ['APP_INSTALL', 1],
  ],
  markets: [
    { currency: 'USD', timezone: 'America/New_York', fxPerUsd: 1, countries: ['US', 'CA'] },
    { currency: 'EUR', timezone: 'Europe/Berlin', fxPerUsd: 0.92, countries: ['DE', 'AT', 'CH'] },
    { currency: 'GBP', timezone: 'Europe/London', fxPerUsd: 0.79, countries: ['GB', 'IE'] },
    { currency: 'JPY', timezone: 'Asia/Tokyo', fxPerUsd: 150, countries: ['JP'] },
  ],
  campaignsPerAccount: [8, 16],
  adSetsPerCampaign: [2, 4],
  dailyBudgetUsd: [120, 900],
  cpaUsd: { ECOMMERCE: [18, 45], LEAD_GEN: [8, 25], APP_INSTALL: [2, 6] },
  noise: [0.05, 0.12],
  cboShare: 0.4,
  advantageShoppingShare: 0.15,
  advantageAudienceShare: 0.2,
  costCapShare: 0.15,
  bidCapShare: 0.05,
  problemShare: 0.45,
  categoryMix: {
    CREATIVE_FATIGUE: 1,
    LEARNING_PHASE_STALL: 1,
    AUCTION_OVERLAP: 1,
    PACING_ISSUE: 1,
    CPA_DEGRADATION: 1,
    AUDIENCE_SATURATION: 1,
  },
  onsetDaysAgo: [8, 20],
  stepShare: 0.35,
  rampDays: [3, 8],
  effect: {
    fatigueCtrDrop: [0.1, 0.6],
    fatigueFrequencyRise: [0.05, 0.5],
    saturationFrequencyRise: [0.15, 0.9],
    saturationCpmRise: [0, 0.5],
    overlapCpmRise: [0.08, 0.5],
    overlapUnderspend: [0.05, 0.45],
    overlapAcrossCampaigns: 0.3,
    pacingShare: [0.25, 0.85],
    cpaRise: [0.12, 1.0],
    learningShare: [0.1, 0.7],
  },
  goalShare: 0.5,
  belowGoalShare: 0.3,
  blockedShare: 0.04,
  burstShare: 0.15,
  controls: {
    perSeed: { TRACKING_OUTAGE: 1, MARKET_SHIFT: 1, BUDGET_CHANGE: 1 },
    trackingLoss: [0.4, 0.7],
    trackingOnsetDaysAgo: [4, 12],
    marketCpmRise: [0.2, 0.4],
    marketOnsetDaysAgo: [5, 14],
    budgetFactor: [1.8, 2.2],
    budgetChangeDaysAgo: [2, 2],
  },
};
