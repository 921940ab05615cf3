// Formats one /insights row the way Meta sends it: metric strings, money in major units, ratios
// computed from the summed counts, purchase aliases with equal values, empty metrics omitted.

import type { Metrics } from './delivery';
import type { InsightsQuery } from './insights-query';
import { hasValue, resultActionTypes } from './results';
import type { Account, Ad, AdSet, Campaign } from './world/types';

export interface RowEntity {
  account: Account;
  campaign?: Campaign;
  adSet?: AdSet;
  ad?: Ad;
}

export type InsightRow = Record<string, unknown>;

function trim(x: number, digits = 6): string {
  if (!Number.isFinite(x)) return '0';
  return x.toFixed(digits).replace(/\.?0+$/, '');
}

function money(minorUnits: number, account: Account): string {
  return account.minorPerMajor === 1 ? String(minorUnits) : (minorUnits / account.minorPerMajor).toFixed(2);
}

const WINDOW_SHARE: Record<string, number> = {
  '1d_click': 0.7,
  '7d_click': 0.86,
  '28d_click': 0.93,
  default: 1,
  dda: 1,
  '1d_ev': 0.02,
};

function actionEntry(
  type: string,
  value: number,
  windows: string[],
  format: (v: number) => string,
): Record<string, string> {
  const out: Record<string, string> = { action_type: type, value: format(value) };
  for (const w of windows) {
    if (w === '1d_view') out[w] = format(value - Math.round(value * 0.86));
    else out[w] = format(Math.round(value * (WINDOW_SHARE[w] ?? 1)));
  }
  return out;
}

export function formatRow(
  e: RowEntity,
  m: Metrics,
  q: InsightsQuery,
  dateStart: string,
  dateStop: string,
): InsightRow {
  const a = e.account;
  const spendMajor = m.spend / a.minorPerMajor;
  const count = (v: number): string => String(v);
  const cash = (v: number): string => money(v, a);
  // Rows of a campaign (or finer) report the results of its kind; account rows, which sum every
  // kind, report them under the purchase aliases (a simplification: the sync never reads them).
  const purchaseKind = !e.campaign || e.campaign.resultKind === 'PURCHASE';
  const resultTypes = e.campaign
    ? resultActionTypes(e.campaign)
    : ['offsite_conversion.fb_pixel_purchase', 'omni_purchase', 'purchase'];
  const actionList: Array<[string, number]> = [
    ...(purchaseKind
      ? ([
          ['add_to_cart', m.addToCart],
          ['offsite_conversion.fb_pixel_add_to_cart', m.addToCart],
          ['omni_add_to_cart', m.addToCart],
        ] as Array<[string, number]>)
      : []),
    ['landing_page_view', m.landingPageViews],
    ['link_click', m.linkClicks],
    ...resultTypes.map((t): [string, number] => [t, m.purchases]),
  ];
  actionList.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  const valued = !e.campaign || hasValue(e.campaign.resultKind);
  const valueTypes = resultTypes;
  const row: InsightRow = {};
  for (const field of q.fields) {
    let value: unknown;
    switch (field) {
      case 'account_id':
        value = a.accountId;
        break;
      case 'account_name':
        value = a.name;
        break;
      case 'account_currency':
        value = a.currency;
        break;
      case 'campaign_id':
        value = e.campaign?.id;
        break;
      case 'campaign_name':
        value = e.campaign?.name;
        break;
      case 'adset_id':
        value = e.adSet?.id;
        break;
      case 'adset_name':
        value = e.adSet?.name;
        break;
      case 'ad_id':
        value = e.ad?.id;
        break;
      case 'ad_name':
        value = e.ad?.name;
        break;
      case 'objective':
        value = e.campaign?.objective;
        break;
      case 'optimization_goal':
        value = e.adSet?.optimizationGoal;
        break;
      case 'buying_type':
        value = 'AUCTION';
        break;
      case 'attribution_setting':
        value = '7d_click_1d_view';
        break;
      case 'spend':
        value = cash(m.spend);
        break;
      case 'impressions':
        value = count(m.impressions);
        break;
      case 'reach':
        value = m.reach > 0 ? count(m.reach) : undefined;
        break;
      case 'frequency':
        value = m.reach > 0 ? trim(m.impressions / m.reach) : undefined;
        break;
      case 'clicks':
        value = count(m.clicks);
        break;
      case 'inline_link_clicks':
        value = count(m.linkClicks);
        break;
      case 'ctr':
        value = m.impressions > 0 ? trim((m.clicks / m.impressions) * 100) : undefined;
        break;
      case 'inline_link_click_ctr':
        value = m.impressions > 0 ? trim((m.linkClicks / m.impressions) * 100) : undefined;
        break;
      case 'cpm':
        value = m.impressions > 0 ? trim((spendMajor / m.impressions) * 1000) : undefined;
        break;
      case 'cpp':
        value = m.reach > 0 ? trim((spendMajor / m.reach) * 1000) : undefined;
        break;
      case 'cpc':
        value = m.clicks > 0 ? trim(spendMajor / m.clicks) : undefined;
        break;
      case 'cost_per_inline_link_click':
        value = m.linkClicks > 0 ? trim(spendMajor / m.linkClicks) : undefined;
        break;
      case 'actions': {
        const list = actionList.filter(([, v]) => v > 0).map(([t, v]) => actionEntry(t, v, q.windows, count));
        value = list.length > 0 ? list : undefined;
        break;
      }
      case 'action_values':
        value =
          valued && m.revenue > 0
            ? valueTypes.map((t) => actionEntry(t, m.revenue, q.windows, cash))
            : undefined;
        break;
      case 'cost_per_action_type': {
        const list = actionList
          .filter(([, v]) => v > 0)
          .map(([t, v]) => ({ action_type: t, value: trim(spendMajor / v) }));
        value = list.length > 0 ? list : undefined;
        break;
      }
      case 'purchase_roas':
        value =
          purchaseKind && m.revenue > 0 && m.spend > 0
            ? [{ action_type: 'omni_purchase', value: trim(m.revenue / m.spend) }]
            : undefined;
        break;
      case 'website_purchase_roas':
        value =
          purchaseKind && m.revenue > 0 && m.spend > 0
            ? [{ action_type: 'offsite_conversion.fb_pixel_purchase', value: trim(m.revenue / m.spend) }]
            : undefined;
        break;
      default:
        value = undefined;
    }
    if (value !== undefined) row[field] = value;
  }
  row.date_start = dateStart;
  row.date_stop = dateStop;
  return row;
}
