// The in-memory demo world: businesses, ad accounts, campaigns, ad sets and ads. Structure only;
// daily delivery is computed on demand by ../delivery.ts from (seed, entity, day).

export type ProblemCategory =
  | 'CREATIVE_FATIGUE'
  | 'LEARNING_PHASE_STALL'
  | 'AUCTION_OVERLAP'
  | 'PACING_ISSUE'
  | 'CPA_DEGRADATION'
  | 'AUDIENCE_SATURATION';

export type ScenarioCategory = ProblemCategory | 'HEALTHY';

export const PROBLEM_CATEGORIES: readonly ProblemCategory[] = [
  'CREATIVE_FATIGUE',
  'LEARNING_PHASE_STALL',
  'AUCTION_OVERLAP',
  'PACING_ISSUE',
  'CPA_DEGRADATION',
  'AUDIENCE_SATURATION',
];

/**
 * What a campaign's ad sets are optimized for, i.e. what Ads Manager counts as its results. The
 * delivery model's optimization events ("purchases") are the results of every kind but landing page
 * views, which count the model's landing page views.
 */
export type ResultKind =
  'PURCHASE' | 'LEAD_FORM' | 'APP_INSTALL' | 'CUSTOM_CONVERSION' | 'LANDING_PAGE_VIEW' | 'CONVERSATIONS';

export interface CustomConversion {
  id: string;
  name: string;
}

export type ConfiguredStatus = 'ACTIVE' | 'PAUSED' | 'ARCHIVED' | 'DELETED';

export interface Business {
  id: string;
  name: string;
}

export interface Targeting {
  geo_locations: { countries: string[] };
  age_min: number;
  age_max: number;
  genders?: number[];
}

/** Day-of-week multipliers (index 0 = Sunday). */
export interface WeeklyPattern {
  spend: number[];
  cpm: number[];
  ctr: number[];
  cvr: number[];
}

export interface Account {
  key: number;
  /** Digits only; the Graph id is `act_${accountId}`. */
  accountId: string;
  name: string;
  currency: string;
  timezone: string;
  business: Business;
  accountStatus: 1 | 2;
  disableReason: number;
  /** Lifetime spend cap in minor units (null: no cap, sent as "0"). */
  spendCapMinor: number | null;
  userTasks: string[];
  /** The agency business that reaches this account as a client account (not in /me/adaccounts); null: the user's own. */
  clientOf: Business | null;
  createdTime: number;
  /** Account currency units per US dollar (the model's economics are in USD). */
  fxPerUsd: number;
  minorPerMajor: number;
  /** Last day with delivery (a disabled account stopped earlier). */
  lastDeliveryDay: number;
  weekly: WeeklyPattern;
  countries: string[];
  campaigns: Campaign[];
}

/** An injected problem; `since` is a day number, effects ramp in over `ramp` days. */
export interface Scenario {
  category: ProblemCategory;
  since: number;
  ramp: number;
  /** Category-specific magnitude (see delivery.ts for its meaning per category). */
  magnitude: number;
  /** A second magnitude (e.g. target frequency, CPM rise). */
  magnitude2: number;
  variant: string;
  /** The ad set the problem lives on, when it is ad-set specific. */
  adSetKey?: number;
}

export interface Campaign {
  key: number;
  id: string;
  account: Account;
  name: string;
  objective: string;
  status: ConfiguredStatus;
  budgetMode: 'CBO' | 'ABO';
  /** CBO only, minor units. */
  dailyBudgetMinor: number | null;
  bidStrategy: string;
  startDay: number;
  /** Last day it can deliver (pause/archive), null while running. */
  endDay: number | null;
  createdTime: number;
  startTime: number;
  updatedTime: number;
  /** Average order value in USD. */
  aovUsd: number;
  resultKind: ResultKind;
  /** The custom conversion its ad sets optimize for (CUSTOM_CONVERSION campaigns). */
  customConversion: CustomConversion | null;
  scenario: Scenario | null;
  /** Whether the campaign is a ground-truth entry (active, connectable account). */
  evaluated: boolean;
  adSets: AdSet[];
}

export interface AdSetProfile {
  cpmUsd: number;
  ctr: number;
  linkShare: number;
  cvr: number;
  frequency: number;
  utilization: number;
}

export interface AdSet {
  key: number;
  id: string;
  campaign: Campaign;
  name: string;
  status: ConfiguredStatus;
  /** ABO: daily budget in minor units (the current one). */
  dailyBudgetMinor: number | null;
  /** ABO: a budget that applied before `budgetChangeDay` (a significant edit). */
  previousBudgetMinor: number | null;
  budgetChangeDay: number | null;
  bidStrategy: string;
  bidAmountMinor: number | null;
  optimizationGoal: string;
  targeting: Targeting;
  startDay: number;
  endDay: number | null;
  createdTime: number;
  startTime: number;
  updatedTime: number;
  lastSigEditDay: number;
  /** CBO share weight. */
  weight: number;
  profile: AdSetProfile;
  /** What the scenario does to this ad set, if anything. */
  role: 'target' | 'member' | null;
  ads: Ad[];
}

export interface Ad {
  key: number;
  id: string;
  adSet: AdSet;
  name: string;
  status: ConfiguredStatus;
  creativeId: string;
  startDay: number;
  endDay: number | null;
  createdTime: number;
  updatedTime: number;
  weight: number;
  ctrMod: number;
  cvrMod: number;
  /** Ad review outcome other than approved (DISAPPROVED, WITH_ISSUES), with Meta's issues_info. */
  review: AdReview | null;
}

export interface AdIssue {
  error_code: number;
  error_summary: string;
  error_message: string;
  error_type: 'HARD_ERROR' | 'SOFT_ERROR';
  level: 'AD' | 'AD_SET' | 'CAMPAIGN';
}

export interface AdReview {
  effectiveStatus: 'DISAPPROVED' | 'WITH_ISSUES';
  issues: AdIssue[];
  /** Day the review outcome arrived (an ad_review_declined activity). */
  day: number;
}

export type WorldNode =
  | { kind: 'account'; account: Account }
  | { kind: 'campaign'; campaign: Campaign }
  | { kind: 'adset'; adSet: AdSet }
  | { kind: 'ad'; ad: Ad };

export interface World {
  seed: number;
  today: string;
  todayDay: number;
  firstDay: number;
  user: { id: string; name: string };
  appId: string;
  businesses: Business[];
  accounts: Account[];
  /** Accounts of outside businesses, reachable only as a business's client ad accounts. */
  clientAccounts: Account[];
  nodes: Map<string, WorldNode>;
}

export interface GenerateWorldOptions {
  seed?: number;
  /** YYYY-MM-DD, the last day with (partial) data; default: UTC today. */
  today?: string;
  largeAccountCampaigns?: number;
  /** Days of history served, today included (default HISTORY_DAYS; 730 for a two-year account). */
  historyDays?: number;
}
