// The loaded snapshot the detectors read. Money stays in micro-units here; the API rounding happens
// only when evidence and metrics are written out.
import type { FocusMetric, Issue, IssueType, RiskAppetite, RiskLevel } from '../../shared/api/diagnostics';

export interface DayRow {
  date: string;
  spend: number;
  impressions: number;
  clicks: number;
  /** Link clicks (Ads Manager's CTR); detectors read all clicks. */
  linkClicks: number;
  conversions: number;
  revenue: number;
  reach: number;
  frequency: number;
}

export interface Targeting {
  countries: string[];
  ageMin: number;
  ageMax: number;
  /** 'all' or a subset of 'male'/'female'. */
  genders: string[];
  /** Custom/lookalike audience IDs and interest IDs, when the platform gave them. */
  audiences: string[];
  interests: string[];
  /** Custom audiences and countries the ad set excludes (never reached, whatever else it targets). */
  excludedAudiences?: string[];
  excludedCountries?: string[];
  /** Advantage+ audience on: age, gender, audiences and interests are suggestions, not limits. */
  advantageAudience?: boolean;
}

export interface LearningSnapshot {
  observedOn: string;
  status: string;
  conversions: number;
  lastSignificantEditAt: string | null;
}

export interface AdSetData {
  id: string;
  platformAdSetId: string;
  name: string;
  status: string;
  effectiveStatus: string;
  dailyBudget: number | null;
  lifetimeBudget: number | null;
  bidStrategy: string | null;
  bidAmount: number | null;
  optimizationGoal: string | null;
  promotedEvent: string | null;
  /** The ad set's result type; UNKNOWN or MIXED results are never judged on cost per result. */
  resultType?: string | null;
  /** Its result as Ads Manager's Results column names it (e.g. "Purchases"). */
  resultName?: string | null;
  targeting: Targeting;
  learningStatus: string | null;
  learningConversions: number | null;
  lastSignificantEditAt: string | null;
  createdTime: string;
  snapshots: LearningSnapshot[];
  /** Daily rows keyed by date, over the loaded window (range plus baseline). */
  daily: Map<string, DayRow>;
}

export interface AdData {
  id: string;
  adSetId: string;
  name: string;
  status: string;
  effectiveStatus: string;
  createdTime: string;
  daily: Map<string, DayRow>;
  /** Review errors and delivery issues (Meta's issues_info); absent before they were synced. */
  issues?: AdIssueData[];
}

export interface AdIssueData {
  errorCode: number | null;
  summary: string;
  message: string;
}

/** The account's own state: a disabled account or a reached spend cap stops every campaign. */
export interface AccountState {
  status: string;
  disableReason: number;
  /** Micros; null = no cap (or not synced yet). */
  spendCap: number | null;
  amountSpent: number | null;
}

/** One synced activity log entry of the campaign, its ad sets or ads (plain data for the engine). */
export interface ChangeRecord {
  at: string;
  changeType: string;
  eventType: string;
  objectType: string;
  adSetId: string | null;
  adId: string | null;
  oldValue: string | null;
  newValue: string | null;
}

export interface CampaignData {
  /** The campaign's result type (null: synced before result types were read, judged as before). */
  resultType?: string | null;
  id: string;
  accountId: string;
  platformCampaignId: string;
  name: string;
  status: string;
  effectiveStatus: string;
  objective: string;
  /** Meta's smart_promotion_type: AUTOMATED_SHOPPING_ADS / SMART_APP_PROMOTION are Advantage+ campaigns. */
  smartPromotionType?: string | null;
  bidStrategy: string | null;
  dailyBudget: number | null;
  lifetimeBudget: number | null;
  startTime: string | null;
  stopTime: string | null;
  targetCpa: number | null;
  currency: string;
  timezone: string;
  adSets: AdSetData[];
  ads: AdData[];
  daily: Map<string, DayRow>;
  /** The account's state (delivery blockers); absent in snapshots built without it. */
  account?: AccountState;
  /** Synced edits from the loaded window's start to its end, oldest first (not judged yet). */
  changes?: ChangeRecord[];
  /** The goal it is judged against: its own, else its account's (absent or null: none set). */
  goal?: { kind: 'CPA' | 'ROAS'; target: number; source: 'campaign' | 'account' } | null;
}

/** The dates a diagnostic looks at. `loadFrom` is the start of the baseline window before the range. */
export interface Window {
  from: string;
  to: string;
  loadFrom: string;
}

/** What a detector returns before IDs are numbered and severities are finalized. */
export interface Finding {
  type: IssueType;
  severity: RiskLevel;
  title: string;
  description: string;
  affectedEntity: { type: 'adSet' | 'campaign' | 'account'; id: string; name: string };
  evidence: Issue['evidence'];
  /** Spend of the affected entity in the range (micros): used for risk and ranking. */
  spendAtRisk: number;
  /** 0..1+ how far past the threshold the finding is; used to rank within a severity. */
  magnitude: number;
  /** Data the recommendation builder needs (entity IDs, amounts in micros). */
  facts: Record<string, number | string | null>;
  campaignId: string;
  campaignName: string;
}

export interface Profile {
  riskAppetite: RiskAppetite;
  focusMetric: FocusMetric;
}
