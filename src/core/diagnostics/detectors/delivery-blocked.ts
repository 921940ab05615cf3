// Delivery blocked: the campaign does not deliver (no spend, or far under its budget, over the last
// days of the range) and Meta says why: an ad it should run was disapproved, the account is
// disabled, or the account reached its spend cap. The finding names that cause in Meta's words;
// fixing it comes before any tuning advice. Without a blocker it finds nothing, whatever the spend.
import { addDays } from '../../clock';
import { disableReasonName, disableReasonText } from '../../../shared/disable-reasons';
import { money, quote } from '../format';
import { toAmount } from '../series';
import type { AdData, CampaignData, Finding, Window } from '../types';
import { campaignDaily } from './context';

export const DELIVERY_RULES = {
  /** The last days of the range judged for delivery. */
  recentDays: 3,
  /** "Far under budget": recent daily spend below this share of the daily budget. */
  underBudgetShare: 0.2,
  /** Amount spent at or above this share of the spend cap: the cap is reached. */
  capReachedShare: 0.99,
} as const;

type Blocker = Extract<Finding['evidence'], { blockers: unknown }>['blockers'][number];

function adBlockers(ads: readonly AdData[]): Blocker[] {
  // An ad the analyst left on (configured ACTIVE) that review turned down.
  return ads
    .filter((ad) => ad.status === 'ACTIVE' && ad.effectiveStatus === 'DISAPPROVED')
    .map((ad) => {
      const issue = ad.issues?.[0];
      return {
        kind: 'AD_DISAPPROVED' as const,
        ad: { id: ad.id, name: ad.name },
        errorCode: issue?.errorCode ?? null,
        reason: issue?.summary || 'Ad not approved',
        message: issue?.message || 'Meta did not approve this ad.',
      };
    });
}

function accountBlockers(data: CampaignData): Blocker[] {
  const account = data.account;
  if (!account) return [];
  const out: Blocker[] = [];
  if (account.status !== 'active') {
    out.push({
      kind: 'ACCOUNT_DISABLED',
      reason: disableReasonName(account.disableReason) ?? account.status.toUpperCase(),
      message: `The ad account is ${account.status}: ${disableReasonText(account.disableReason)}.`,
    });
  }
  const { spendCap, amountSpent } = account;
  if (
    spendCap !== null &&
    spendCap > 0 &&
    amountSpent !== null &&
    amountSpent >= spendCap * DELIVERY_RULES.capReachedShare
  ) {
    out.push({
      kind: 'SPEND_CAP_REACHED',
      reason: 'SPEND_CAP_REACHED',
      message: `The account has spent ${money(amountSpent, data.currency)} of its ${money(spendCap, data.currency)} spend cap.`,
    });
  }
  return out;
}

export function detectDeliveryBlocked(data: CampaignData, window: Window): Finding[] {
  if (data.status !== 'ACTIVE') return [];
  const blockers = [...accountBlockers(data), ...adBlockers(data.ads)];
  if (blockers.length === 0) return [];
  const daily = campaignDaily(data);
  const days: string[] = [];
  for (let d = window.from; d <= window.to; d = addDays(d, 1)) days.push(d);
  const recent = days.slice(-DELIVERY_RULES.recentDays);
  const spendOn = (d: string) => daily.get(d)?.spend ?? 0;
  const recentDaily = recent.reduce((sum, d) => sum + spendOn(d), 0) / Math.max(1, recent.length);
  const activeAdSets = data.adSets.filter((s) => s.status === 'ACTIVE');
  const adSetBudgets = activeAdSets.reduce((sum, s) => sum + (s.dailyBudget ?? 0), 0);
  const budget = data.dailyBudget ?? (adSetBudgets > 0 ? adSetBudgets : null);
  const stopped = recentDaily === 0;
  const farUnder = budget !== null && recentDaily < budget * DELIVERY_RULES.underBudgetShare;
  if (!stopped && !farUnder) return [];
  let idle = 0;
  for (let i = days.length - 1; i >= 0 && spendOn(days[i] ?? '') === 0; i--) idle += 1;
  const first = blockers[0] as Blocker;
  const cause =
    first.kind === 'AD_DISAPPROVED'
      ? `ad ${quote(first.ad?.name ?? '')} was disapproved (${first.reason}: ${first.message})`
      : first.message.replace(/\.$/, '');
  const more =
    blockers.length > 1 ? ` (and ${blockers.length - 1} more blocker${blockers.length > 2 ? 's' : ''})` : '';
  const delivery = stopped
    ? idle >= days.length
      ? 'has not delivered at all in the range'
      : `has not delivered for ${idle} day${idle === 1 ? '' : 's'}`
    : `is spending ${money(recentDaily, data.currency)} a day against a ${money(budget ?? 0, data.currency)} budget`;
  const rangeBudget = (budget ?? 0) * days.length;
  return [
    {
      type: 'DELIVERY_BLOCKED',
      severity: stopped ? 'CRITICAL' : 'HIGH',
      title: 'Delivery blocked',
      description: `Campaign ${quote(data.name)} ${delivery} because ${cause}${more}.`,
      affectedEntity: { type: 'campaign', id: data.id, name: data.name },
      evidence: {
        blockers,
        recentDailySpend: toAmount(recentDaily),
        dailyBudget: budget === null ? null : toAmount(budget),
        daysWithoutDelivery: idle,
        spendTrend: days.map((d) => toAmount(spendOn(d))),
      },
      spendAtRisk: rangeBudget,
      magnitude: 2,
      facts: {
        stopped: stopped ? 1 : 0,
        blocker: first.kind,
        adId: first.ad?.id ?? null,
        adName: first.ad?.name ?? null,
        reason: first.reason,
        message: first.message,
        dailyBudget: budget,
      },
      campaignId: data.id,
      campaignName: data.name,
    },
  ];
}
