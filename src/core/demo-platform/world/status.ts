// Effective status as Meta derives it from an object's own status and its parents'.

import type { Ad, AdSet, Campaign } from './types';

export function campaignEffectiveStatus(c: Campaign): string {
  return c.status;
}

export function adSetEffectiveStatus(s: AdSet): string {
  const parent = s.campaign.status;
  if (parent === 'DELETED' || parent === 'ARCHIVED') return parent;
  if (s.status === 'ACTIVE' && parent === 'PAUSED') return 'CAMPAIGN_PAUSED';
  return s.status;
}

export function adEffectiveStatus(ad: Ad): string {
  const parent = adSetEffectiveStatus(ad.adSet);
  if (parent === 'DELETED' || parent === 'ARCHIVED') return parent;
  if (ad.status === 'DELETED' || ad.status === 'ARCHIVED') return ad.status;
  // A review outcome shows whatever the configured status (Ads Manager lists it so).
  if (ad.review) return ad.review.effectiveStatus;
  if (ad.status !== 'ACTIVE') return ad.status;
  if (parent === 'CAMPAIGN_PAUSED') return 'CAMPAIGN_PAUSED';
  if (parent === 'PAUSED') return 'ADSET_PAUSED';
  return 'ACTIVE';
}

/** Statuses an edge returns when the request names none: everything but DELETED and ARCHIVED. */
export function visibleByDefault(effectiveStatus: string): boolean {
  return effectiveStatus !== 'DELETED' && effectiveStatus !== 'ARCHIVED';
}

export const EFFECTIVE_STATUSES = new Set([
  'ACTIVE',
  'PAUSED',
  'DELETED',
  'ARCHIVED',
  'PENDING_REVIEW',
  'DISAPPROVED',
  'PREAPPROVED',
  'PENDING_BILLING_INFO',
  'CAMPAIGN_PAUSED',
  'ADSET_PAUSED',
  'IN_PROCESS',
  'WITH_ISSUES',
]);
