// The structure oracle: checks every recommendation against the campaign's real structure as the
// generator built it (its ground truth), written without reading the engine's reasoning. A
// recommendation must be doable in Ads Manager: no ad-set budget moves in a CBO campaign, no "raise
// the cap" without a cap, no audience advice inside Advantage+ Shopping, budget steps within ±30%,
// and a delivery blocker fixed before anything is tuned.
import type { Issue, Recommendation } from '../../src/shared/api/diagnostics';
import type {
  AccountTruth,
  CampaignStructure,
  CampaignTruth,
} from '../../src/core/demo-platform/families/generate';

export type Rule =
  | 'CBO_AD_SET_BUDGET'
  | 'CAP_WITHOUT_CAP'
  | 'AUDIENCE_IN_ADVANTAGE_SHOPPING'
  | 'ADVANTAGE_AUDIENCE_ALREADY_ON'
  | 'BUDGET_STEP_OVER_30'
  | 'BLOCKER_NOT_FIRST';

export const RULES: readonly Rule[] = [
  'CBO_AD_SET_BUDGET',
  'CAP_WITHOUT_CAP',
  'AUDIENCE_IN_ADVANTAGE_SHOPPING',
  'ADVANTAGE_AUDIENCE_ALREADY_ON',
  'BUDGET_STEP_OVER_30',
  'BLOCKER_NOT_FIRST',
];

export interface Violation {
  accountId: string;
  campaignId: string;
  rule: Rule;
  action: string;
}

export interface OracleInput {
  truth: AccountTruth;
  issues: readonly Issue[];
  recommendations: readonly Recommendation[];
  actionKinds: Record<string, string>;
  /** A single-campaign diagnostic: every recommendation is about this campaign. */
  campaignId?: string;
}

/** Names in “curly quotes” (how the product quotes ad sets, ads and campaigns). */
const quoted = (text: string): string[] => [...text.matchAll(/“([^”]+)”/g)].map((m) => m[1] ?? '');

/** An amount as written ("$1,234.56", "¥33,309", "CA$12"): its number, or null. */
function amount(text: string): number | null {
  const digits = text.replace(/[^0-9.]/g, '');
  const value = Number.parseFloat(digits);
  return Number.isFinite(value) ? value : null;
}

/** Relative budget steps a recommendation asks for ("by 20%", "from A to B"). */
function budgetSteps(action: string): number[] {
  if (!/budget/i.test(action)) return [];
  const steps: number[] = [];
  for (const m of action.matchAll(/budget[^.]*?\bby (\d+(?:\.\d+)?)%/gi)) steps.push(Number(m[1]) / 100);
  // An amount ends at a space, a closing bracket or a final comma or full stop: "¥44,181" is one
  // amount (a thousands separator is no end).
  for (const m of action.matchAll(/from (\S+?) to (\S+?)(?=[\s)]|[,.](?:\s|$)|$)/g)) {
    const a = amount(m[1] ?? '');
    const b = amount(m[2] ?? '');
    if (a && b) steps.push(b / a - 1);
  }
  return steps;
}

function campaignsOf(input: OracleInput, rec: Recommendation): CampaignTruth[] {
  const byId = new Map(input.truth.campaigns.map((c) => [c.campaignId, c]));
  if (input.campaignId) {
    const own = byId.get(input.campaignId);
    return own ? [own] : [];
  }
  const out = new Set<CampaignTruth>();
  for (const issueId of rec.relatedIssues) {
    const issue = input.issues.find((i) => i.id === issueId);
    if (!issue) continue;
    const id =
      (issue as { campaignId?: string }).campaignId ??
      (issue.affectedEntity.type === 'campaign' ? issue.affectedEntity.id : undefined);
    const c = id ? byId.get(id) : undefined;
    if (c) out.add(c);
  }
  return [...out];
}

/** The ad sets a recommendation names (or all of the campaign's when it names none). */
function namedAdSets(structure: CampaignStructure, action: string): CampaignStructure['adSets'] {
  const names = new Set(quoted(action));
  const named = structure.adSets.filter((s) => names.has(s.name));
  return named.length > 0 ? named : structure.adSets;
}

function rulesBroken(action: string, kind: string, structure: CampaignStructure): Rule[] {
  const broken: Rule[] = [];
  const adSetBudget =
    // An ad set's own budget, not a campaign budget named later in the same sentence ("add creative
    // to ad set X …, and lower the daily budget of campaign Y" edits the campaign's).
    /(budget of ad set|budgets? of (the )?ad sets|move [^.]*budget[^.]*ad set|ad set “[^”]*”(?:'s)? daily budget)/i.test(
      action,
    );
  if (structure.budget === 'CBO' && adSetBudget) broken.push('CBO_AD_SET_BUDGET');
  if (/(raise|loosen|increase|lift)[^.]*\b(bid|cost)( ?\/ ?cost)? ?(cap|control)/i.test(action)) {
    const capped = namedAdSets(structure, action).some((s) => s.bidStrategy !== 'LOWEST_COST_WITHOUT_CAP');
    if (!capped) broken.push('CAP_WITHOUT_CAP');
  }
  if (
    structure.advantageShopping &&
    /(broaden|widen|narrow)[^.]*audience|lookalike|exclude one audience|Advantage\+ audience|widen age/i.test(
      action,
    )
  )
    broken.push('AUDIENCE_IN_ADVANTAGE_SHOPPING');
  if (/turn on Advantage\+ audience/i.test(action)) {
    const named = structure.adSets.filter((s) => quoted(action).includes(s.name));
    if (named.length > 0 && named.every((s) => s.advantageAudience))
      broken.push('ADVANTAGE_AUDIENCE_ALREADY_ON');
  }
  if (kind !== 'FIX_DELIVERY_BLOCKER' && budgetSteps(action).some((s) => Math.abs(s) > 0.3 + 1e-9))
    broken.push('BUDGET_STEP_OVER_30');
  return broken;
}

/** Every recommendation checked; returns how many were checked and what they broke. */
export function checkRecommendations(input: OracleInput): { checked: number; violations: Violation[] } {
  const violations: Violation[] = [];
  const accountId = input.truth.accountId;
  for (const rec of input.recommendations) {
    const kind = input.actionKinds[rec.id] ?? '';
    for (const c of campaignsOf(input, rec)) {
      for (const rule of rulesBroken(rec.action, kind, c.structure))
        violations.push({ accountId, campaignId: c.campaignId, rule, action: rec.action });
    }
  }
  // Delivery blockers first: with a blocked campaign in scope, the first recommendation fixes it.
  const inScope = input.campaignId
    ? input.truth.campaigns.filter((c) => c.campaignId === input.campaignId)
    : input.truth.campaigns;
  const blocked = inScope.filter((c) => c.structure.blocked);
  const first = input.recommendations[0];
  if (blocked.length > 0 && first && input.actionKinds[first.id] !== 'FIX_DELIVERY_BLOCKER') {
    violations.push({
      accountId,
      campaignId: blocked[0]?.campaignId ?? '',
      rule: 'BLOCKER_NOT_FIRST',
      action: first.action,
    });
  }
  return { checked: input.recommendations.length, violations };
}
