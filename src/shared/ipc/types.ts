// What the handlers return: the API's resource shapes (camelCase, money in account currency) plus the
// few fields a screen needs that the /v1 API does not carry (sync progress, feedback given, hints).
import type {
  DiagnosticCreated as ApiDiagnosticCreated,
  DiagnosticDetail as ApiDiagnosticDetail,
  DiagnosticListItem as ApiDiagnosticListItem,
  Issue,
  Recommendation,
} from '../api/diagnostics';
import type { Account } from '../api/accounts';
import type { AdIssue, DeliveryIssues } from '../api/campaigns';
import type { ChangeEvent } from '../api/changes';
import type { InsightsSummary } from '../api/insights';
import type { ReportingCurrency } from '../api/reporting-currency';
import type { Report, ReportSchedule, WhiteLabel as ApiWhiteLabel } from '../api/reports';

export type { Issue, Recommendation, Report, InsightsSummary };
export type RiskLevel = 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';
export type ConnectionStatus = 'active' | 'disconnected' | 'token_expired';
export type Plan = 'starter' | 'pro' | 'agency' | 'trial';

export interface SyncState {
  running: boolean;
  percent: number;
  phase: string;
  lastError: { type: string; message: string } | null;
  /** When the account syncs next on its own (null: not scheduled, or its connection is not active). */
  nextSyncAt: string | null;
  /** Set while Meta's rate limit pauses the account's sync: when it resumes by itself (ISO time). */
  pausedUntil: string | null;
}

/** The account read model: the API's Account plus what a screen needs besides (sync progress, mode). */
export interface AccountView extends Account {
  statusReason: string | null;
  mode: 'test' | 'live';
  sync: SyncState;
}

export interface DemoCandidate {
  platformAccountId: string;
  name: string;
  currency: string;
  businessName: string;
  canConnect: boolean;
}

export interface LatestDiagnostic {
  id: string;
  riskLevel: RiskLevel | null;
  issuesDetected: number;
  completedAt: string | null;
}

export interface CampaignMetrics {
  spend: number;
  impressions: number;
  clicks: number;
  conversions: number;
  revenue: number;
  cpa: number | null;
  roas: number | null;
  ctr: number | null;
  cpm: number | null;
  /** Link clicks (Ads Manager's CTR and CPC are per link click). */
  linkClicks: number;
  /** Sum of daily reach (people reached per day, summed); frequency is impressions over it. */
  reach: number;
  frequency: number | null;
}

export interface CampaignRow extends CampaignMetrics {
  id: string;
  platformCampaignId: string;
  accountId: string;
  accountName: string;
  name: string;
  status: string;
  objective: string;
  /** What its results are (PURCHASE, LEAD_FORM, …, MIXED, UNKNOWN) and Ads Manager's name for them. */
  resultType: string | null;
  resultName: string | null;
  bidStrategy: string | null;
  dailyBudget: number | null;
  lifetimeBudget: number | null;
  currency: string;
  adSetCount: number;
  adCount: number;
  synced: boolean;
  lastSyncedAt: string | null;
  latestDiagnostic: LatestDiagnostic | null;
  /** The same metrics over the comparison period; null when nothing is compared. */
  previous: CampaignMetrics | null;
}

export interface CampaignList {
  /** The range (of the account whose "today" is latest: each account resolves a preset in its zone). */
  dateRange: { from: string; to: string };
  /** The comparison period, or null ("compare to: none"). */
  comparison: { from: string; to: string } | null;
  items: CampaignRow[];
}

export interface DailyPoint {
  date: string;
  spend: number;
  conversions: number;
  cpa: number | null;
  roas: number | null;
  impressions: number;
  clicks: number;
}

export interface AdSetView {
  id: string;
  platformAdSetId: string;
  name: string;
  status: string;
  learningPhaseStatus: 'EXITED' | 'IN_LEARNING' | 'FAIL' | null;
  learningConversions: number | null;
  dailyBudget: number | null;
  targeting: { geoLocations: string[]; ageMin: number | null; ageMax: number | null; genders: string[] };
  optimization: string | null;
  adCount: number;
  spend: number;
  conversions: number;
}

export interface AdView {
  id: string;
  adSetId: string;
  adSetName: string;
  name: string;
  status: string;
  spend: number;
  impressions: number;
  clicks: number;
  conversions: number;
  ctr: number | null;
}

export interface CampaignDetail {
  campaign: CampaignRow;
  targetCpa: number | null;
  dateRange: { from: string; to: string };
  comparison: { from: string; to: string } | null;
  daily: DailyPoint[];
  adSets: AdSetView[];
  ads: AdView[];
  /** Ads that cannot deliver or deliver with issues, and their issues (Meta's issues_info). */
  deliveryIssues: DeliveryIssues;
  adIssues: AdIssue[];
  /** The campaign's change history (activity log), newest first. */
  changes: ChangeEvent[];
}

export type DiagnosticListItem = ApiDiagnosticListItem;
export type DiagnosticIssue = Issue;
export type DiagnosticRecommendation = Recommendation;
export type DiagnosticCreated = ApiDiagnosticCreated;
/** The API's diagnostic detail plus the feedback this user already gave on its recommendations. */
export interface DiagnosticDetail extends ApiDiagnosticDetail {
  feedback: Record<string, 'applied' | 'dismissed'>;
  campaignTargetCpa?: number | null;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

export type WhiteLabel = ApiWhiteLabel;
export type ReportView = Report;

/** A client's (ad account's) report branding, and the workspace default it falls back to. */
export interface ClientBrandingView {
  accountId: string;
  branding: ApiWhiteLabel | null;
  workspaceDefault: ApiWhiteLabel | null;
  /** False on plans without white-label (setting is refused). */
  allowed: boolean;
}
/** A recurring report; its next run waits in the reports list as `pending` until `nextRunAt`. */
export interface ReportScheduleView extends ReportSchedule {
  accountName: string;
}
export type InsightsSummaryView = InsightsSummary;

export interface ApiKeyView {
  id: string;
  name: string;
  mode: 'live' | 'test';
  hint: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export interface ApiKeyCreated {
  apiKey: ApiKeyView;
  /** The secret, shown once. */
  key: string;
}

export interface AndromedaProfile {
  riskAppetite: 'LOW' | 'MEDIUM' | 'HIGH';
  focusMetric: 'ROAS' | 'CPA' | 'CTR' | 'CONVERSIONS';
  updatedAt: string | null;
}

/** A person with access to the workspace, as the owner manages them in Settings. */
export interface UserView {
  id: string;
  email: string;
  name: string | null;
  role: 'owner' | 'admin' | 'member';
  status: 'active' | 'disabled' | 'removed';
  createdAt: string;
}

export interface SettingsView {
  host: 'desktop' | 'web';
  workspace: { id: string; name: string; plan: Plan; apiAllowed: boolean; whiteLabelAllowed: boolean };
  user: { id: string; email: string; name: string | null; role: string };
  api: { baseUrl: string | null; port: number };
  whiteLabelDefaults: WhiteLabel | null;
  /** The reporting currency and exchange rates of whole-workspace insights across currencies. */
  reportingCurrency: ReportingCurrency | null;
  /** The agency's own Meta app for Facebook Login (desktop): its ID, and whether its secret is set. */
  metaApp: { appId: string | null; hasSecret: boolean };
  /** Desktop only: closing the window leaves AdLens watching in the tray; start at login. */
  desktop: { keepRunningInTray: boolean; openAtLogin: boolean };
}

/** A core event as the renderer receives it (already scoped to its workspace). */
export interface BridgeEvent {
  name:
    | 'sync.progress'
    | 'sync.completed'
    | 'sync.failed'
    | 'connection.changed'
    | 'connection.expiring'
    | 'diagnostic.changed'
    | 'report.changed'
    | 'issue.changed'
    | 'alert.raised';
  payload: Record<string, unknown>;
}
