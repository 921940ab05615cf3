// The diagnostics engine: pure functions from loaded campaign data (and the user's Andromeda profile
// and feedback) to the content of a diagnostic. Same input, same output: no clock, no randomness.
import type {
  AndromedaContext,
  DiagnosticMetrics,
  GoalCheck,
  Issue,
  MetaRecommendations,
  Recommendation,
  RiskLevel,
} from '../../shared/api/diagnostics';
import { deriveMetrics } from '../insights/metrics';
import { DEFAULT_PROFILE, type ActionKind, type Learned } from './andromeda';
import { readAccountContext, type AccountRef } from './account-context';
import { detectCpaDegradation, detectorContext, runDetectors } from './detectors';
import { detectCrossCampaignOverlap } from './detectors/auction-overlap';
import { detectDeliveryBlocked } from './detectors/delivery-blocked';
import { describeAdaptations } from './adaptations';
import { buildRecommendations, type CampaignScope, type NumberedFinding } from './recommendations';
import {
  adjustedSeverity,
  goalAwareSeverity,
  moneyAtRiskOf,
  riskLevelOf,
  SEVERITY_RANK,
  type GoalStanding,
} from './severity';
import { detectGoalMissed } from './detectors/goal-missed';
import { accountMediansOf, judgeGoal, pooledWindow, type PeerTotals } from './goal-judgement';
import { addTotals, emptyTotals, loadFromFor, sumRange, windowsFor, type Totals } from './series';
import { MICROS_PER_UNIT } from '../money';
import { structureOf } from './structure';
import { accountSummary, campaignSummary } from './summary';
import { DEFAULT_THRESHOLDS, thresholdsFor, type Thresholds } from './thresholds';
import type { CampaignData, Finding, Window } from './types';

export interface DiagnosisContent {
  riskLevel: RiskLevel;
  summary: string;
  issues: Issue[];
  recommendations: Recommendation[];
  metrics: DiagnosticMetrics;
  andromedaContext: AndromedaContext;
  issuesDetected: number;
  recommendationCount: number;
  campaignsAnalyzed?: number;
  /** Kind of each recommendation, kept with the stored result so feedback can be attributed. */
  actionKinds: Record<string, ActionKind>;
  /** Meta's own recommendations beside ours (added from the store by compute.ts; null: none offered). */
  metaRecommendations?: MetaRecommendations | null;
  /** Each campaign against its goal, with its baseline, the account's median and "not enough data". */
  goalChecks: GoalCheck[];
}

/** The first day the engine reads for a range (the reference window before it). */
export function loadFromDate(from: string, to: string): string {
  return loadFromFor(from, to, DEFAULT_THRESHOLDS);
}

interface Detection {
  scopes: Map<string, CampaignScope>;
  findings: Finding[];
  thin: Set<string>;
  totals: Totals;
  rangeSpend: Map<string, number>;
  goalChecks: GoalCheck[];
  standings: Map<string, GoalStanding>;
}

function detect(
  campaigns: readonly CampaignData[],
  from: string,
  to: string,
  th: Thresholds,
  account?: AccountRef,
  siblings: readonly CampaignData[] = [],
  peers?: readonly PeerTotals[],
): Detection {
  const scopes = new Map<string, CampaignScope>();
  const findings: Finding[] = [];
  const thin = new Set<string>();
  const stopped = new Set<string>();
  let totals = emptyTotals();
  const rangeSpend = new Map<string, number>();
  const goalChecks: GoalCheck[] = [];
  const standings = new Map<string, GoalStanding>();
  const window = { from, to, loadFrom: loadFromFor(from, to, th) };
  const medians = accountMediansOf(peers ?? peersOf(campaigns, window, th), th);
  for (const data of campaigns) {
    const ctx = detectorContext(data, window, th);
    const t = sumRange(data.daily, from, to);
    totals = addTotals(totals, t);
    rangeSpend.set(data.id, ctx.rangeSpend);
    // Below its goal (or break-even), or too little data to tell: never offered for scaling.
    const judgement = judgeGoal(data, window, th, medians);
    goalChecks.push(judgement.check);
    const standing: GoalStanding = {
      headroom: judgement.headroom,
      moneyAtRisk: judgement.moneyAtRisk,
      explicit: data.goal != null,
    };
    standings.set(data.id, standing);
    const holdScaling =
      judgement.check.status === 'MISSED' ||
      judgement.check.status === 'NOT_ENOUGH_DATA' ||
      (judgement.check.metric === 'ROAS' && (judgement.check.actual ?? 0) < 1);
    scopes.set(data.id, { data, windows: ctx.windows, th, rangeSpend: ctx.rangeSpend, holdScaling });
    // A blocker (disapproved ad, disabled account, reached spend cap) of a campaign that does not
    // deliver is found even without data: no spend is the symptom. Its severity is not scaled by spend.
    const blocked = detectDeliveryBlocked(data, window);
    findings.push(...blocked);
    // Below target is never healthy: judged on pooled days even when the range alone is thin.
    const missed = detectGoalMissed(data, judgement);
    for (const f of missed) findings.push({ ...f, severity: adjustedSeverity(f, ctx.rangeSpend) });
    // Thin data never produces a tuning issue.
    if (t.spend < ctx.minSpend || t.impressions < th.minImpressions) {
      thin.add(data.id);
      continue;
    }
    // A campaign its blocker stopped has no recent week of delivery: the CPM of its last delivering
    // day or two and its unspent budget would read as an overlap (as under-spending, below). Its
    // auctions are judged again once it delivers; what its ads did while they ran still counts.
    const halted = blocked.some((f) => f.facts.stopped === 1);
    if (halted) stopped.add(data.id);
    for (const f of runDetectors(ctx)) {
      if (halted && f.type === 'AUCTION_OVERLAP') continue;
      // The cost per result above the CPA goal is already the goal's finding: not said twice.
      if (missed.length > 0 && f.type === 'CPA_DEGRADATION' && f.facts.source === 'analyst_target') continue;
      // A campaign its blocker stops (disapproved ad, spend cap) under-spends because of it: the
      // blocker is the finding, a pacing issue beside it would send the analyst to the budget.
      if (
        blocked.length > 0 &&
        f.type === 'PACING_ISSUE' &&
        'direction' in f.evidence &&
        f.evidence.direction === 'UNDER'
      )
        continue;
      const scaled = { ...f, severity: adjustedSeverity(f, ctx.rangeSpend) };
      findings.push({ ...scaled, severity: goalAwareSeverity(scaled, standing) });
    }
  }
  if (campaigns.length + siblings.length > 1)
    crossCampaignOverlap(
      campaigns,
      siblings,
      findings,
      new Set([...thin, ...stopped]),
      window,
      th,
      rangeSpend,
    );
  if (!account) return { scopes, findings, thin, totals, rangeSpend, goalChecks, standings };
  // Account context first: what the whole account shows is not blamed on each campaign.
  const context = readAccountContext(
    campaigns,
    windowsFor(window, th),
    th,
    th.minSpendPerUnit * MICROS_PER_UNIT,
    account,
  );
  const kept = findings
    .filter((f) => !context.explains(f))
    .map((f) => {
      const note = context.noteFor(f);
      return note ? { ...f, description: f.description + note } : f;
    });
  return {
    scopes,
    findings: [...context.findings, ...kept],
    thin,
    totals,
    rangeSpend,
    goalChecks,
    standings,
  };
}

/**
 * Overlap between ad sets of different campaigns, added to `findings` in place. Ad sets already in an
 * overlap of their own campaign, or saturating, are left out; their under-delivery is the overlap's
 * symptom (Meta: overlapping ad sets "can't spend their budget"), reported in it, not again as pacing.
 */
function crossCampaignOverlap(
  campaigns: readonly CampaignData[],
  siblings: readonly CampaignData[],
  findings: Finding[],
  thin: ReadonlySet<string>,
  window: { from: string; to: string; loadFrom: string },
  th: Thresholds,
  rangeSpend: ReadonlyMap<string, number>,
): void {
  const excluded = new Set<string>();
  // Ad sets of an undated group of their own campaign (overlapping all along, often chained through a
  // broad Advantage+ audience ad set): a dated pair across campaigns, a launch into their audience,
  // is the better explanation, and replaces that group.
  const undated = new Set<string>();
  const groupOf = new Map<string, Finding>();
  for (const f of findings) {
    if (f.type !== 'AUCTION_OVERLAP' && f.type !== 'AUDIENCE_SATURATION') continue;
    const into = f.type === 'AUCTION_OVERLAP' && f.facts.dated === 0 ? undated : excluded;
    const ids = [f.affectedEntity.id];
    if ('overlappingAdSets' in f.evidence) ids.push(...f.evidence.overlappingAdSets.map((s) => s.id));
    for (const id of ids) {
      into.add(id);
      if (into === undated) groupOf.set(id, f);
    }
  }
  const members = [...campaigns.filter((c) => !thin.has(c.id)), ...siblings].flatMap((campaign) =>
    campaign.adSets.map((adSet) => ({ campaign, adSet })),
  );
  const diagnosed = new Set(campaigns.map((c) => c.id));
  const byId = new Map(members.map((m) => [m.adSet.id, m]));
  const cross = detectCrossCampaignOverlap(
    members,
    { windows: windowsFor(window, th), th, minSpend: th.minSpendPerUnit * MICROS_PER_UNIT, window },
    excluded,
    undated,
  )
    .map((f) => ownedBy(f, diagnosed, byId))
    .filter((f): f is Finding => f !== null);
  if (cross.length === 0) return;
  const overlapping = new Set<string>();
  for (const f of cross) {
    overlapping.add(f.affectedEntity.id);
    if ('overlappingAdSets' in f.evidence)
      for (const s of f.evidence.overlappingAdSets) overlapping.add(s.id);
  }
  const replaced = new Set([...overlapping].map((id) => groupOf.get(id)).filter((f) => f !== undefined));
  for (let i = findings.length - 1; i >= 0; i--) {
    const f = findings[i];
    if (f && replaced.has(f)) findings.splice(i, 1);
    else if (f?.type === 'PACING_ISSUE' && 'direction' in f.evidence && f.evidence.direction === 'UNDER')
      if (overlapping.has(f.affectedEntity.id)) findings.splice(i, 1);
  }
  dropExplainedCpa(findings, campaigns, overlapping, window, th);
  for (const f of cross)
    findings.push({ ...f, severity: adjustedSeverity(f, rangeSpend.get(f.campaignId) ?? 0) });
}

/**
 * A campaign's cost-per-result rise that its ad sets' overlap with another campaign explains (their
 * CPM up, their budgets unspent) is the overlap's, not said again as CPA degradation: the campaign is
 * judged again without those ad sets (and the ad sets its own findings explain), as the detector does
 * for an overlap inside the campaign, and the degradation stays only if the rest still shows it.
 */
function dropExplainedCpa(
  findings: Finding[],
  campaigns: readonly CampaignData[],
  overlapping: ReadonlySet<string>,
  window: Window,
  th: Thresholds,
): void {
  for (let i = findings.length - 1; i >= 0; i--) {
    const f = findings[i];
    if (f?.type !== 'CPA_DEGRADATION') continue;
    const data = campaigns.find((c) => c.id === f.campaignId);
    if (!data || !data.adSets.some((s) => overlapping.has(s.id))) continue;
    const explained = new Set(overlapping);
    for (const g of findings) {
      if (g.campaignId !== data.id || g.type === 'PACING_ISSUE' || g.type === 'CPA_DEGRADATION') continue;
      if (typeof g.facts.adSetId === 'string') explained.add(g.facts.adSetId);
      if ('overlappingAdSets' in g.evidence)
        for (const s of g.evidence.overlappingAdSets) explained.add(s.id);
    }
    if (detectCpaDegradation(detectorContext(data, window, th), explained).length === 0)
      findings.splice(i, 1);
  }
}

/**
 * A cross-campaign overlap seen from the diagnosed campaigns (a campaign diagnostic also reads its
 * account's other campaigns): kept only when one of their ad sets is in it, and told from that ad set
 * (the other campaigns' ad sets are the overlapping ones). The facts keep which ad set to turn off.
 */
function ownedBy(
  f: Finding,
  diagnosed: ReadonlySet<string>,
  byId: ReadonlyMap<string, { campaign: CampaignData; adSet: { id: string; name: string } }>,
): Finding | null {
  if (diagnosed.has(f.campaignId)) return f;
  const others = 'overlappingAdSets' in f.evidence ? f.evidence.overlappingAdSets : [];
  const ids = [f.affectedEntity.id, ...others.map((s) => s.id)];
  const own = ids.map((id) => byId.get(id)).find((m) => m !== undefined && diagnosed.has(m.campaign.id));
  if (!own || !('overlappingAdSets' in f.evidence)) return null;
  const rest = ids.filter((id) => id !== own.adSet.id).map((id) => byId.get(id));
  const campaignsOf = new Map(
    rest
      .filter((m) => m !== undefined && m.campaign.id !== own.campaign.id)
      .map((m) => [m?.campaign.id ?? '', { id: m?.campaign.id ?? '', name: m?.campaign.name ?? '' }]),
  );
  return {
    ...f,
    affectedEntity: { type: 'adSet', id: own.adSet.id, name: own.adSet.name },
    evidence: {
      ...f.evidence,
      overlappingAdSets: rest.map((m) => ({ id: m?.adSet.id ?? '', name: m?.adSet.name ?? '' })),
      overlappingCampaigns: [...campaignsOf.values()],
    },
    campaignId: own.campaign.id,
    campaignName: own.campaign.name,
  };
}

/** Without the account's other campaigns loaded: the median is over the campaigns at hand. */
function peersOf(campaigns: readonly CampaignData[], window: Window, th: Thresholds): PeerTotals[] {
  const pooled = pooledWindow(window, th);
  return campaigns.map((c) => {
    const t = sumRange(c.daily, pooled.from, pooled.to);
    return {
      campaignId: c.id,
      resultType: c.resultType ?? null,
      spend: t.spend,
      conversions: t.conversions,
      revenue: t.revenue,
    };
  });
}

/**
 * Most severe first, then the most money lost against the goal, then the most spend at stake; ties
 * broken by stable keys for determinism.
 */
function order(findings: Finding[], share: (f: Finding) => number, money: (f: Finding) => number): Finding[] {
  // Blockers first, then the account context the campaign findings are read through.
  const blocked = (f: Finding) =>
    f.type === 'DELIVERY_BLOCKED' ? 2 : f.affectedEntity.type === 'account' ? 1 : 0;
  return [...findings].sort(
    (a, b) =>
      blocked(b) - blocked(a) ||
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      money(b) - money(a) ||
      share(b) - share(a) ||
      b.magnitude - a.magnitude ||
      a.type.localeCompare(b.type) ||
      a.affectedEntity.id.localeCompare(b.affectedEntity.id),
  );
}

function toIssue(f: NumberedFinding, accountLevel: boolean): Issue {
  // Account-context issues belong to no campaign: no campaign name in the title, no campaignId.
  const ofCampaign = accountLevel && f.affectedEntity.type !== 'account';
  return {
    id: f.issueId,
    type: f.type,
    severity: f.severity,
    title: ofCampaign ? `${f.title} (${f.campaignName})` : f.title,
    description: f.description,
    affectedEntity: f.affectedEntity,
    ...(ofCampaign ? { campaignId: f.campaignId } : {}),
    evidence: f.evidence,
  } as Issue;
}

function metricsOf(totals: Totals, currency: string): DiagnosticMetrics {
  const m = deriveMetrics({
    spendMicros: totals.spend,
    impressions: totals.impressions,
    clicks: totals.clicks,
    conversions: totals.conversions,
    revenueMicros: totals.revenue,
    reach: totals.reach,
    linkClicks: totals.linkClicks,
  });
  return {
    spend: m.spend,
    impressions: m.impressions,
    clicks: m.clicks,
    conversions: m.conversions,
    cpa: m.cpa,
    roas: m.roas,
    ctr: m.ctr,
    cpm: m.cpm,
    currency,
  };
}

export interface DiagnoseInput {
  campaigns: readonly CampaignData[];
  /** The account's other campaigns with delivery (ad sets only), read for overlap across campaigns. */
  siblings?: readonly CampaignData[];
  from: string;
  to: string;
  learned: Learned;
  /** Present for an account-level diagnostic. */
  account?: { name: string; currency: string };
  /**
   * Every campaign of the account summed over the pooled days (plain data from the store), for the
   * account's median cost per result and ROAS; absent: the campaigns at hand.
   */
  peers?: readonly PeerTotals[];
}

export function diagnose(input: DiagnoseInput): DiagnosisContent {
  const { learned, from, to } = input;
  const accountLevel = input.account !== undefined;
  const th = thresholdsFor(learned.profile.riskAppetite);
  const accountRef = input.account
    ? { id: input.campaigns[0]?.accountId ?? '', name: input.account.name }
    : undefined;
  const siblings = input.siblings ?? [];
  const detection = detect(input.campaigns, from, to, th, accountRef, siblings, input.peers);
  const totalSpend = detection.totals.spend;
  const shareIn = (f: Finding): number =>
    accountLevel
      ? f.spendAtRisk / (totalSpend || 1)
      : f.spendAtRisk / (detection.rangeSpend.get(f.campaignId) || 1);
  const moneyIn = (f: Finding): number => moneyAtRiskOf(f, detection.standings);
  const numbered: NumberedFinding[] = order(detection.findings, shareIn, moneyIn).map((f, i) => ({
    ...f,
    issueId: `issue_${i + 1}`,
  }));
  const riskLevel = accountLevel
    ? riskLevelOf(numbered, totalSpend)
    : riskLevelOf(numbered, detection.rangeSpend.get(input.campaigns[0]?.id ?? '') ?? 0);
  // A blocked campaign without delivery is "thin" yet has a finding: it is judged, not waved off.
  const allThin =
    input.campaigns.length > 0 &&
    detection.thin.size === input.campaigns.length &&
    detection.findings.length === 0;
  // Every recommendation is checked against how its campaign is built (structure.ts).
  const blocked = new Set(numbered.filter((f) => f.type === 'DELIVERY_BLOCKED').map((f) => f.campaignId));
  const ranked = buildRecommendations(
    numbered,
    detection.scopes,
    learned,
    allThin || input.campaigns.length === 0,
    structureOf([...input.campaigns, ...siblings], blocked),
  );
  const currency = input.account?.currency ?? input.campaigns[0]?.currency ?? 'USD';
  const metrics = metricsOf(detection.totals, currency);

  // What the profile and feedback changed: the same data under the default profile without feedback.
  let defaultIssueKeys: string[] | null = null;
  if (learned.profile.riskAppetite !== DEFAULT_PROFILE.riskAppetite) {
    defaultIssueKeys = detect(
      input.campaigns,
      from,
      to,
      DEFAULT_THRESHOLDS,
      accountRef,
      siblings,
      input.peers,
    ).findings.map(issueKey);
  }
  const adaptations = describeAdaptations({
    learned,
    th,
    issueKeys: numbered.map(issueKey),
    defaultIssueKeys,
    order: ranked.order,
    defaultOrder: ranked.defaultOrder,
  });

  const summary = accountLevel
    ? accountSummary({
        accountName: input.account?.name ?? '',
        from,
        to,
        metrics,
        campaignsAnalyzed: input.campaigns.length,
        campaignsThin: detection.thin.size,
        findings: numbered,
        riskLevel,
        recommendations: ranked.recommendations,
        goalChecks: detection.goalChecks,
      })
    : campaignSummary({
        name: input.campaigns[0]?.name ?? '',
        from,
        to,
        metrics,
        totals: detection.totals,
        thin: allThin,
        th,
        findings: numbered,
        riskLevel,
        recommendations: ranked.recommendations,
        goalCheck: detection.goalChecks[0],
      });

  return {
    riskLevel,
    summary,
    issues: numbered.map((f) => toIssue(f, accountLevel)),
    recommendations: ranked.recommendations,
    metrics,
    andromedaContext: {
      riskAppetite: learned.profile.riskAppetite,
      focusMetric: learned.profile.focusMetric,
      adaptations,
    },
    issuesDetected: numbered.length,
    recommendationCount: ranked.recommendations.length,
    ...(accountLevel ? { campaignsAnalyzed: input.campaigns.length } : {}),
    actionKinds: ranked.actionKinds,
    goalChecks: detection.goalChecks,
  };
}

export function issueKey(f: Pick<Finding, 'type' | 'affectedEntity' | 'campaignName'>): string {
  return `${f.type}|${f.affectedEntity.name}|${f.campaignName}`;
}
