// The held-out family: other seeds AND other mixes, ranges and account shapes than the tuning family.
// Thresholds are never tuned on it: nothing under src/ or in unit tests may import this file or use
// its seeds. `npm run bench` reports its accuracy as the headline figure.
import { TUNING_FAMILY, type FamilySpec } from '../../src/core/demo-platform/families/spec';

export const HELD_OUT_FAMILY: FamilySpec = {
  ...TUNING_FAMILY,
  name: 'held-out',
  seeds: [7301, 7302, 7303, 7304, 7305, 7306],
  today: '2026-06-20',
  accountsPerSeed: 6,
  // More lead-gen and app accounts, fewer shops.
  shapes: [
    ['ECOMMERCE', 2],
    ['LEAD_GEN', 2],
    ['APP_INSTALL', 2],
  ],
  markets: [
    { currency: 'BRL', timezone: 'America/Sao_Paulo', fxPerUsd: 5.1, countries: ['BR'] },
    { currency: 'KRW', timezone: 'Asia/Seoul', fxPerUsd: 1350, countries: ['KR'] },
    { currency: 'AUD', timezone: 'Australia/Sydney', fxPerUsd: 1.52, countries: ['AU', 'NZ'] },
    { currency: 'EUR', timezone: 'Europe/Madrid', fxPerUsd: 0.92, countries: ['ES', 'PT'] },
    { currency: 'USD', timezone: 'America/Los_Angeles', fxPerUsd: 1, countries: ['US'] },
  ],
  campaignsPerAccount: [5, 22],
  adSetsPerCampaign: [1, 5],
  // Wider volume: small accounts with few results a day, and large ones.
  dailyBudgetUsd: [60, 1600],
  cpaUsd: { ECOMMERCE: [14, 60], LEAD_GEN: [5, 35], APP_INSTALL: [1.5, 8] },
  noise: [0.04, 0.16],
  cboShare: 0.55,
  advantageShoppingShare: 0.3,
  advantageAudienceShare: 0.35,
  costCapShare: 0.1,
  bidCapShare: 0.1,
  problemShare: 0.4,
  categoryMix: {
    CREATIVE_FATIGUE: 1.2,
    LEARNING_PHASE_STALL: 0.8,
    AUCTION_OVERLAP: 1,
    PACING_ISSUE: 0.8,
    CPA_DEGRADATION: 1.2,
    AUDIENCE_SATURATION: 1,
  },
  onsetDaysAgo: [6, 19],
  stepShare: 0.5,
  rampDays: [2, 10],
  effect: {
    fatigueCtrDrop: [0.08, 0.55],
    fatigueFrequencyRise: [0, 0.6],
    saturationFrequencyRise: [0.12, 1.1],
    saturationCpmRise: [0, 0.35],
    overlapCpmRise: [0.05, 0.45],
    overlapUnderspend: [0.05, 0.5],
    overlapAcrossCampaigns: 0.5,
    pacingShare: [0.2, 0.9],
    cpaRise: [0.1, 1.2],
    learningShare: [0.05, 0.8],
  },
  goalShare: 0.6,
  belowGoalShare: 0.35,
  blockedShare: 0.05,
  burstShare: 0.25,
  controls: {
    perSeed: { TRACKING_OUTAGE: 1, MARKET_SHIFT: 1, BUDGET_CHANGE: 1 },
    trackingLoss: [0.4, 0.7],
    trackingOnsetDaysAgo: [3, 13],
    marketCpmRise: [0.2, 0.4],
    marketOnsetDaysAgo: [4, 15],
    budgetFactor: [1.9, 2.1],
    budgetChangeDaysAgo: [2, 2],
  },
};
