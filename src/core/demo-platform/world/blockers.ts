// Delivery blockers of the demo world: ads that failed review (DISAPPROVED) or carry issues
// (WITH_ISSUES) with Meta's issues_info, and an account whose spend cap is close to its amount spent.
// Their own random stream, and only on ads that already do not deliver (paused ones) or on accounts
// outside the ground truth, so scenario ground truth and every insight row stay as they were.

import { Rng } from '../prng';
import type { Account, Ad, AdIssue } from './types';

export const POLICY_ISSUES: readonly AdIssue[] = [
  {
    error_code: 2446173,
    error_summary: 'Ad not approved',
    error_message:
      "Your ad wasn't approved because it doesn't follow our Advertising Standards on personal attributes.",
    error_type: 'HARD_ERROR',
    level: 'AD',
  },
  {
    error_code: 2446391,
    error_summary: 'Landing page not functional',
    error_message:
      "Your ad wasn't approved because the landing page doesn't load or isn't functional. Fix the destination URL and request another review.",
    error_type: 'HARD_ERROR',
    level: 'AD',
  },
];

export const SOFT_ISSUES: readonly AdIssue[] = [
  {
    error_code: 1815694,
    error_summary: 'Limited delivery: too much text in image',
    error_message: 'This ad may reach fewer people because its image has too much text.',
    error_type: 'SOFT_ERROR',
    level: 'AD',
  },
];

/** Lifetime spend in minor units, estimated from budgets (the real figure would need every row). */
export function approxAmountSpent(a: Account): number {
  let total = 0;
  for (const c of a.campaigns) {
    const days = Math.max(0, (c.endDay ?? a.lastDeliveryDay) - c.startDay);
    const daily = c.dailyBudgetMinor ?? c.adSets.reduce((sum, s) => sum + (s.dailyBudgetMinor ?? 0), 0);
    total += daily * days * 0.9;
  }
  return Math.round(total);
}

/** The account (by catalog position) whose spend cap is set a little above its amount spent. */
const NEAR_CAP_ACCOUNT_INDEX = 2;
/** The account whose ads should all pass review: the read-only one is kept plain. */
function isReadOnly(account: Account): boolean {
  return !account.userTasks.some((t) => t === 'MANAGE' || t === 'ADVERTISE');
}

export function assignDeliveryBlockers(
  world: { seed: number; firstDay: number; todayDay: number },
  account: Account,
): void {
  const rng = Rng.of(world.seed, 'delivery-blockers', account.key);
  const clampDay = (day: number) => Math.min(world.todayDay, Math.max(world.firstDay, day));
  const ads = account.campaigns.flatMap((c) => c.adSets.flatMap((s) => s.ads));
  if (!isReadOnly(account)) {
    // Paused ads (they already stopped delivering): one disapproved, one with issues.
    const paused = rng.shuffle(
      ads.filter(
        (ad) =>
          ad.status === 'PAUSED' && ad.adSet.status === 'ACTIVE' && ad.adSet.campaign.status === 'ACTIVE',
      ),
    );
    const declined = paused[0];
    if (declined) {
      declined.review = {
        effectiveStatus: 'DISAPPROVED',
        issues: [rng.pick(POLICY_ISSUES)],
        day: clampDay(declined.endDay ?? declined.startDay),
      };
    }
    const limited = paused[1];
    if (limited) {
      limited.review = {
        effectiveStatus: 'WITH_ISSUES',
        issues: [rng.pick(SOFT_ISSUES)],
        day: clampDay(limited.endDay ?? limited.startDay),
      };
    }
  }
  if (account.accountStatus !== 1) {
    // The disabled account: its first live campaign's lead ad was also declined before the account
    // was disabled (outside the ground truth: this account's campaigns are never evaluated).
    const campaign = account.campaigns.find((c) => c.status === 'ACTIVE');
    const ad = campaign?.adSets.flatMap((s) => s.ads).find((a: Ad) => a.status === 'ACTIVE');
    if (ad) {
      const day = account.lastDeliveryDay - rng.int(3, 8);
      ad.review = { effectiveStatus: 'DISAPPROVED', issues: [rng.pick(POLICY_ISSUES)], day: clampDay(day) };
      ad.endDay = Math.min(ad.endDay ?? day - 1, day - 1);
    }
  }
  if (account.key >= 0 && accountIndexOf(account) === NEAR_CAP_ACCOUNT_INDEX) {
    // A cap 1-4% above what was spent: near, not reached (delivery continues).
    account.spendCapMinor = Math.round(approxAmountSpent(account) * rng.range(1.01, 1.04));
  }
}

function accountIndexOf(account: Account): number {
  // Account IDs end with the catalog position + 101 (IdFactory.account).
  return Number(account.accountId.slice(-3)) - 101;
}
