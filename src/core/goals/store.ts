// The goals table: an account's goal and its campaigns' own. The only SQL of goals.
import type { Goal, GoalKind } from '../../shared/api/goals';
import { stmt } from '../store/statements';
import type { Db } from '../store/open';

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

export function goalRows(db: Db, accountId: string): GoalRow[] {
  return stmt(
    db,
    `SELECT account_id, campaign_id, kind, target, updated_at, updated_by FROM goals
       WHERE account_id = ? ORDER BY campaign_id IS NOT NULL, campaign_id`,
  ).all(accountId) as GoalRow[];
}

/** The account's goal and each campaign's own, as plain data (it crosses to the diagnosis worker). */
export function goalsOf(db: Db, accountId: string): AccountGoalSet {
  const set: AccountGoalSet = { account: null, byCampaign: new Map() };
  for (const row of goalRows(db, accountId)) {
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

export function saveGoal(db: Db, row: GoalRow): void {
  db.transaction(() => {
    deleteGoal(db, row.account_id, row.campaign_id);
    stmt(
      db,
      `INSERT INTO goals (account_id, campaign_id, kind, target, updated_at, updated_by)
       VALUES (@account_id, @campaign_id, @kind, @target, @updated_at, @updated_by)`,
    ).run(row);
  })();
}

export function deleteGoal(db: Db, accountId: string, campaignId: string | null): boolean {
  return (
    stmt(db, `DELETE FROM goals WHERE account_id = ? AND ifnull(campaign_id, '') = ifnull(?, '')`).run(
      accountId,
      campaignId,
    ).changes > 0
  );
}
