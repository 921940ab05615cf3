// The account checks a completed sync leads to (alerts that are not issues): what the new facts about
// an account call for, each with the key that makes it once per fact.
import type { RiskLevel } from '../../shared/api/diagnostics';
import type { AlertType } from '../../shared/api/alerts';
import { dateInZone } from '../clock';
import type { Core } from '../core';
import { prefsOf } from './prefs';
import { accountName, dailyBudgetMicros, lastSpendDay, spendCapOf } from './store';

/** The spend cap alert comes at this share of the cap spent. */
const SPEND_CAP_ALERT_SHARE = 0.95;

export interface AccountCheck {
  type: AlertType;
  severity: RiskLevel | null;
  /** Once per fact: the delivery key. */
  key: string;
  title: string;
  text: string;
  detail: Record<string, unknown>;
}

/**
 * What a sync's new facts about an account call for: an account the platform disabled (once a day), a
 * spending limit nearly or fully spent (once per limit), results dropping to zero on the last whole day
 * with spend (once per such day; conversions stand for results at account level), and a day's spend far
 * off the active daily budgets (once per day).
 */
export async function accountChecks(
  core: Core,
  workspaceId: string,
  accountId: string,
): Promise<AccountCheck[]> {
  const checks: AccountCheck[] = [];
  const account = await accountName(core.sql, accountId);
  if (!account) return checks;
  const prefs = await prefsOf(core, workspaceId);
  const today = dateInZone(core.clock.now(), prefs.timezone);
  if (account.status === 'disabled') {
    checks.push({
      type: 'account.disabled',
      severity: null,
      key: `disabled:${accountId}:${today}`,
      title: `Account disabled: ${account.name}`,
      text: `Meta reports ${account.name} as disabled: its ads do not deliver.`,
      detail: { status: account.status },
    });
  }
  const cap = await spendCapOf(core.sql, accountId);
  if (
    cap &&
    cap.spend_cap_micros > 0 &&
    cap.amount_spent_micros >= cap.spend_cap_micros * SPEND_CAP_ALERT_SHARE
  ) {
    const reached = cap.amount_spent_micros >= cap.spend_cap_micros;
    checks.push({
      type: 'account.spend_cap',
      severity: 'HIGH',
      // Once per cap: raising the cap and reaching it again is news again.
      key: `cap:${accountId}:${cap.spend_cap_micros}`,
      title: `${reached ? 'Spend cap reached' : 'Spend cap nearly reached'}: ${account.name}`,
      text: `${account.name} has spent ${(cap.amount_spent_micros / 1e6).toFixed(2)} of its ${(cap.spend_cap_micros / 1e6).toFixed(2)} account spending limit${reached ? ': its ads stop delivering until the limit is raised' : ''}.`,
      detail: { spendCap: cap.spend_cap_micros / 1e6, amountSpent: cap.amount_spent_micros / 1e6 },
    });
  }
  // Today is not over in the account's zone: only a whole day can be judged to have no results.
  const last = await lastSpendDay(core.sql, accountId, dateInZone(core.clock.now(), account.timezone));
  const budget = await dailyBudgetMicros(core.sql, accountId);
  if (last && budget > 0 && Math.abs(last.spend_micros / budget - 1) > prefs.pacingShare) {
    const rate = last.spend_micros / budget;
    checks.push({
      type: 'spend.pacing',
      severity: null, // operational, like a failed sync: not ranked against the risk threshold
      key: `pacing:${accountId}:${last.date}`,
      title: `Spend ${rate > 1 ? 'over' : 'under'} budget on ${last.date}: ${account.name}`,
      text: `${account.name} spent ${(last.spend_micros / 1e6).toFixed(2)} on ${last.date} against ${(budget / 1e6).toFixed(2)} of daily budgets (${Math.round(rate * 100)}%).`,
      detail: {
        date: last.date,
        spend: last.spend_micros / 1e6,
        dailyBudget: budget / 1e6,
        pacingRate: rate,
      },
    });
  }
  if (last && last.conversions === 0) {
    checks.push({
      type: 'results.zero',
      severity: 'HIGH',
      key: `zero:${accountId}:${last.date}`,
      title: `No results on ${last.date}: ${account.name}`,
      text: `${account.name} spent on ${last.date} and got no results.`,
      detail: { date: last.date, spend: last.spend_micros / 1e6 },
    });
  }
  return checks;
}
