// How each result kind looks on the wire: the ad set's optimization goal and promoted object, and
// the action types its results are reported under (aliases with equal values, as Meta sends them).

import type { Metrics } from './delivery';
import { hash32 } from './prng';
import type { Account, AdSet, Campaign, ResultKind } from './world/types';

export function pixelId(account: Account): string {
  return `7${String(hash32(account.accountId, 'pixel') % 1e9).padStart(9, '0')}42`;
}

function appId(account: Account): string {
  return `3${String(hash32(account.accountId, 'app') % 1e9).padStart(9, '0')}18`;
}

function pageId(account: Account): string {
  return `10${String(hash32(account.accountId, 'page') % 1e9).padStart(9, '0')}6`;
}

export function optimizationGoal(adSet: AdSet): string {
  switch (adSet.campaign.resultKind) {
    case 'PURCHASE':
      return adSet.optimizationGoal;
    case 'CUSTOM_CONVERSION':
      return 'OFFSITE_CONVERSIONS';
    case 'LEAD_FORM':
      return 'LEAD_GENERATION';
    case 'APP_INSTALL':
      return 'APP_INSTALLS';
    case 'LANDING_PAGE_VIEW':
      return 'LANDING_PAGE_VIEWS';
    case 'CONVERSATIONS':
      return 'CONVERSATIONS';
  }
}

export function promotedObject(campaign: Campaign): Record<string, string> | undefined {
  const account = campaign.account;
  switch (campaign.resultKind) {
    case 'PURCHASE':
      return { pixel_id: pixelId(account), custom_event_type: 'PURCHASE' };
    case 'CUSTOM_CONVERSION':
      return {
        pixel_id: pixelId(account),
        custom_conversion_id: campaign.customConversion?.id ?? '0',
        custom_event_type: 'OTHER',
      };
    case 'LEAD_FORM':
    case 'CONVERSATIONS':
      return { page_id: pageId(account) };
    case 'APP_INSTALL':
      return {
        application_id: appId(account),
        object_store_url: `https://play.google.com/store/apps/details?id=com.demo.app${account.key}`,
      };
    case 'LANDING_PAGE_VIEW':
      return undefined;
  }
}

export function destinationType(kind: ResultKind): string {
  if (kind === 'LEAD_FORM') return 'ON_AD';
  if (kind === 'APP_INSTALL') return 'APP';
  if (kind === 'CONVERSATIONS') return 'MESSENGER';
  return 'WEBSITE';
}

/** The count Ads Manager shows as results for one day of metrics. */
export function resultCount(kind: ResultKind, m: Metrics): number {
  return kind === 'LANDING_PAGE_VIEW' ? m.landingPageViews : m.purchases;
}

/** Action types the results are reported under (each with the same value), by kind. */
export function resultActionTypes(campaign: Campaign): string[] {
  switch (campaign.resultKind) {
    case 'PURCHASE':
      return ['offsite_conversion.fb_pixel_purchase', 'omni_purchase', 'purchase'];
    case 'CUSTOM_CONVERSION':
      return [`offsite_conversion.custom.${campaign.customConversion?.id ?? '0'}`];
    case 'LEAD_FORM':
      // Instant Form leads also appear under `lead`: one event, several names.
      return ['lead', 'leadgen_grouped', 'onsite_conversion.lead_grouped'];
    case 'APP_INSTALL':
      return ['mobile_app_install', 'omni_app_install'];
    case 'CONVERSATIONS':
      return ['onsite_conversion.messaging_conversation_started_7d'];
    case 'LANDING_PAGE_VIEW':
      return []; // landing_page_view is reported for every kind
  }
}

/** Kinds whose results carry a value (ROAS): purchases and value-bearing custom conversions. */
export function hasValue(kind: ResultKind): boolean {
  return kind === 'PURCHASE' || kind === 'CUSTOM_CONVERSION';
}
