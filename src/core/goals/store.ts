// The goals table: an account's goal and its campaigns' own. The only SQL of goals.
import type { Goal, GoalKind } from '../../shared/api/goals';
import { jsonValues } from '../store/dialect';
import type { Sql } from '../store/sql';

export interface GoalRow {
  account_id: string;
  campaign_id: string | null;
  kind: GoalKind;
  target: number;
  updated_at: string;
  updated_by: string | null;
}

export interface AccountGoalSet {
  account: Goal | null;
  byCampaign: Map<string, Goal>;
}

export type EffectiveGoal = Goal & { source: 'campaign' | 'account' };

export function goalRows(sql: Sql, accountId: string): Promise<GoalRow[]> {
  return sql.all<GoalRow>(
    `SELECT account_id, campaign_id, kind, target, updated_at, updated_by FROM goals
       WHERE account_id = ? ORDER BY campaign_id IS NOT NULL, campaign_id`,
    [accountId],
  );
}

/** The account-level goals of several accounts in one statement (the portfolio shows 500 at once). */
export async function accountGoals(sql: Sql, accountIds: readonly string[]): Promise<Map<string, Goal>> {
  if (accountIds.length === 0) return new Map();
  const rows = await sql.all<{ account_id: string; kind: GoalKind; target: number }>(
    `SELECT account_id, kind, target FROM goals WHERE account_id IN ${jsonValues(sql)} AND campaign_id IS NULL`,
    [JSON.stringify(accountIds)],
  );
  return new Map(rows.map((row) => [row.account_id, { kind: row.kind, target: row.target }]));
}

/** The account's goal and each campaign's own, as plain data (it crosses to the diagnosis worker). */
export async function goalsOf(sql: Sql, accountId: string): Promise<AccountGoalSet> {
  const set: AccountGoalSet = { account: null, byCampaign: new Map() };
  for (const row of await goalRows(sql, accountId)) {
    const goal: Goal = { kind: row.kind, target: row.target };
    if (row.campaign_id === null) set.account = goal;
    else set.byCampaign.set(row.campaign_id, goal);
  }
  return set;
}

/** The goal a campaign is judged against: its own, else the account's. */
export function effectiveGoal(goals: AccountGoalSet, campaignId: string): EffectiveGoal | null {
  const own = goals.byCampaign.get(campaignId);
  if (own) return { ...own, source: 'campaign' };
  return goals.account ? { ...goals.account, source: 'account' } : null;
}

/** Sets the account's or a campaign's goal, replacing the one it had. */
export async function saveGoal(sql: Sql, row: GoalRow): Promise<void> {
  await sql.transaction(async (tx) => {
    await deleteGoal(tx, row.account_id, row.campaign_id);
    await tx.run(
      `INSERT INTO goals (account_id, campaign_id, kind, target, updated_at, updated_by)
       VALUES (?, ?, ?, ?, ?, ?)`,
      [row.account_id, row.campaign_id, row.kind, row.target, row.updated_at, row.updated_by],
    );
  });
}

export async function deleteGoal(sql: Sql, accountId: string, campaignId: string | null): Promise<boolean> {
  const { changes } = await sql.run(
    `DELETE FROM goals WHERE account_id = ? AND COALESCE(campaign_id, '') = COALESCE(CAST(? AS TEXT), '')`,
    [accountId, campaignId],
  );
  return changes > 0;
}
