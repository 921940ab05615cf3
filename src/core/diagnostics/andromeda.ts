// Andromeda: a user's risk appetite and focus metric, and what their feedback on earlier
// recommendations taught us. Profiles shift the threshold table; focus and feedback re-rank actions.
// Its SQL (andromeda_profiles, recommendation_feedback) goes through the store boundary.
import type { FocusMetric, RiskAppetite, RiskLevel } from '../../shared/api/diagnostics';
import { AppError } from '../errors';
import { newId } from '../ids';
import type { Sql } from '../store/sql';
import type { Profile } from './types';

export const DEFAULT_PROFILE: Profile = { riskAppetite: 'MEDIUM', focusMetric: 'CPA' };

/** One kind per concrete Ads Manager action; feedback is remembered per kind. */
export type ActionKind =
  | 'REFRESH_CREATIVE'
  | 'RAISE_LEARNING_BUDGET'
  | 'CONSOLIDATE_AD_SETS'
  | 'FIX_UNDERDELIVERY'
  | 'CAP_OVERSPEND'
  | 'SHIFT_BUDGET'
  | 'CUT_BUDGET'
  | 'EXPAND_AUDIENCE'
  | 'SCALE_WINNER'
  | 'WAIT_FOR_DATA'
  | 'FIX_DELIVERY_BLOCKER'
  | 'CHECK_TRACKING'
  | 'HOLD_FOR_MARKET';

/** How much each action moves each focus metric (1 = neutral). Documented in docs/diagnostics.md. */
export const FOCUS_WEIGHTS: Record<ActionKind, Record<FocusMetric, number>> = {
  REFRESH_CREATIVE: { ROAS: 1.0, CPA: 1.1, CTR: 1.6, CONVERSIONS: 1.0 },
  RAISE_LEARNING_BUDGET: { ROAS: 0.8, CPA: 1.0, CTR: 0.7, CONVERSIONS: 1.4 },
  CONSOLIDATE_AD_SETS: { ROAS: 1.1, CPA: 1.2, CTR: 0.8, CONVERSIONS: 1.0 },
  FIX_UNDERDELIVERY: { ROAS: 0.8, CPA: 0.8, CTR: 0.7, CONVERSIONS: 1.5 },
  CAP_OVERSPEND: { ROAS: 1.3, CPA: 1.1, CTR: 0.7, CONVERSIONS: 0.6 },
  SHIFT_BUDGET: { ROAS: 1.4, CPA: 1.4, CTR: 0.8, CONVERSIONS: 1.1 },
  CUT_BUDGET: { ROAS: 1.2, CPA: 1.2, CTR: 0.6, CONVERSIONS: 0.5 },
  EXPAND_AUDIENCE: { ROAS: 0.9, CPA: 1.0, CTR: 1.3, CONVERSIONS: 1.3 },
  SCALE_WINNER: { ROAS: 1.0, CPA: 0.9, CTR: 0.8, CONVERSIONS: 1.4 },
  WAIT_FOR_DATA: { ROAS: 1, CPA: 1, CTR: 1, CONVERSIONS: 1 },
  // Ranked first whatever the focus (recommendations.ts): nothing else works until delivery resumes.
  FIX_DELIVERY_BLOCKER: { ROAS: 1, CPA: 1, CTR: 1, CONVERSIONS: 1 },
  // Account context: ranked with the blockers, since campaign advice read through it would be wrong.
  CHECK_TRACKING: { ROAS: 1, CPA: 1, CTR: 1, CONVERSIONS: 1 },
  HOLD_FOR_MARKET: { ROAS: 1, CPA: 1, CTR: 1, CONVERSIONS: 1 },
};

/** A cautious analyst prefers low-risk actions; a bold one accepts riskier ones. */
export const APPETITE_WEIGHTS: Record<RiskAppetite, Record<RiskLevel, number>> = {
  LOW: { LOW: 1.25, MEDIUM: 0.9, HIGH: 0.6, CRITICAL: 0.5 },
  MEDIUM: { LOW: 1, MEDIUM: 1, HIGH: 0.9, CRITICAL: 0.8 },
  HIGH: { LOW: 0.95, MEDIUM: 1.05, HIGH: 1.15, CRITICAL: 1.1 },
};

export interface FeedbackStats {
  applied: number;
  dismissed: number;
}

export interface Learned {
  profile: Profile;
  /** True when the user saved a profile (vs the default). */
  customized: boolean;
  feedback: Map<ActionKind, FeedbackStats>;
}

/** Each applied action of a kind lifts it 20%, each dismissal lowers it 30%; kept within 0.3-2. */
export function feedbackWeight(stats: FeedbackStats | undefined): number {
  if (!stats) return 1;
  return Math.min(2, Math.max(0.3, 1 + 0.2 * stats.applied - 0.3 * stats.dismissed));
}

export async function getProfile(
  sql: Sql,
  userId: string | null,
): Promise<{ profile: Profile; customized: boolean; updatedAt: string | null }> {
  if (!userId) return { profile: DEFAULT_PROFILE, customized: false, updatedAt: null };
  const row = await sql.get<{ risk_appetite: RiskAppetite; focus_metric: FocusMetric; updated_at: string }>(
    `SELECT risk_appetite, focus_metric, updated_at FROM andromeda_profiles WHERE user_id = ?`,
    [userId],
  );
  if (!row) return { profile: DEFAULT_PROFILE, customized: false, updatedAt: null };
  return {
    profile: { riskAppetite: row.risk_appetite, focusMetric: row.focus_metric },
    customized: true,
    updatedAt: row.updated_at,
  };
}

export async function setProfile(
  sql: Sql,
  userId: string,
  change: Partial<Profile>,
  now: string,
): Promise<Profile> {
  const user = await sql.get(`SELECT id FROM users WHERE id = ?`, [userId]);
  if (!user) throw new AppError('not_found', `user ${userId} not found`);
  const current = (await getProfile(sql, userId)).profile;
  const next: Profile = { ...current, ...change };
  await sql.run(
    `INSERT INTO andromeda_profiles (user_id, risk_appetite, focus_metric, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (user_id) DO UPDATE SET risk_appetite = excluded.risk_appetite,
       focus_metric = excluded.focus_metric, updated_at = excluded.updated_at`,
    [userId, next.riskAppetite, next.focusMetric, now],
  );
  return next;
}

export async function feedbackOf(sql: Sql, userId: string | null): Promise<Map<ActionKind, FeedbackStats>> {
  const out = new Map<ActionKind, FeedbackStats>();
  if (!userId) return out;
  // CASE, not SQLite's sum of a comparison: PostgreSQL does not sum booleans.
  const rows = await sql.all<{ kind: ActionKind; applied: number; dismissed: number }>(
    `SELECT action_kind AS kind, SUM(CASE WHEN feedback = 'applied' THEN 1 ELSE 0 END) AS applied,
       SUM(CASE WHEN feedback = 'dismissed' THEN 1 ELSE 0 END) AS dismissed
     FROM recommendation_feedback WHERE user_id = ? GROUP BY action_kind`,
    [userId],
  );
  for (const row of rows) out.set(row.kind, { applied: row.applied, dismissed: row.dismissed });
  return out;
}

export async function learnedFor(sql: Sql, userId: string | null): Promise<Learned> {
  const { profile, customized } = await getProfile(sql, userId);
  return { profile, customized, feedback: await feedbackOf(sql, userId) };
}

/** Records (or replaces) a user's verdict on one recommendation of a completed diagnostic. */
export async function recordFeedback(
  sql: Sql,
  input: {
    userId: string;
    diagnosticId: string;
    recommendationId: string;
    feedback: 'applied' | 'dismissed';
    now: string;
  },
): Promise<{ actionKind: ActionKind }> {
  const row = await sql.get<{ result: string | null }>(
    `SELECT result FROM diagnostics WHERE id = ? AND status = 'completed'`,
    [input.diagnosticId],
  );
  if (!row?.result) throw new AppError('not_found', `completed diagnostic ${input.diagnosticId} not found`);
  const stored = JSON.parse(row.result) as { actionKinds?: Record<string, ActionKind> };
  const actionKind = stored.actionKinds?.[input.recommendationId];
  if (!actionKind)
    throw new AppError(
      'not_found',
      `recommendation ${input.recommendationId} not found in ${input.diagnosticId}`,
    );
  await sql.run(
    `INSERT INTO recommendation_feedback (id, user_id, diagnostic_id, recommendation_id, action_kind, feedback, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (diagnostic_id, recommendation_id, user_id) DO UPDATE SET feedback = excluded.feedback,
       created_at = excluded.created_at`,
    [
      newId('fb'),
      input.userId,
      input.diagnosticId,
      input.recommendationId,
      actionKind,
      input.feedback,
      input.now,
    ],
  );
  return { actionKind };
}

/** The verdicts a user already gave on a diagnostic's recommendations. */
export async function feedbackGiven(
  sql: Sql,
  diagnosticId: string,
  userId: string | null,
): Promise<Record<string, 'applied' | 'dismissed'>> {
  if (!userId) return {};
  const rows = await sql.all<{ recommendation_id: string; feedback: 'applied' | 'dismissed' }>(
    `SELECT recommendation_id, feedback FROM recommendation_feedback WHERE diagnostic_id = ? AND user_id = ?`,
    [diagnosticId, userId],
  );
  return Object.fromEntries(rows.map((r) => [r.recommendation_id, r.feedback]));
}
