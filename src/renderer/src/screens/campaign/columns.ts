// The columns of the campaigns table as data: what each shows, how it sorts, how it exports, and
// whether a rise is good news. The screen renders them, the exports write them, the column sets
// and the chooser pick them; one list so the three never disagree.
import type { CampaignRow } from '../../../../shared/ipc';
import { rowValues, type GoodWhen, type MetricValues } from './table-metrics';

export type ColumnKind = 'text' | 'money' | 'integer' | 'percent' | 'ratio' | 'decimal';

export interface CampaignColumn {
  key: string;
  label: string;
  kind: ColumnKind;
  width?: number;
  /** Metric columns: the value from a row's or the totals' metric values, and which way is good. */
  metric?: { of: (v: MetricValues) => number | null; good: GoodWhen };
  /** Text (or non-metric number) columns: the value of a row. */
  text?: (row: CampaignRow) => string | number | null;
}

const RISK_ORDER: Record<string, number> = { LOW: 1, MEDIUM: 2, HIGH: 3, CRITICAL: 4 };

export const COLUMNS: readonly CampaignColumn[] = [
  { key: 'name', label: 'Campaign', kind: 'text', text: (r) => r.name },
  { key: 'account', label: 'Account', kind: 'text', width: 150, text: (r) => r.accountName },
  { key: 'status', label: 'Status', kind: 'text', width: 92, text: (r) => r.status },
  { key: 'resultType', label: 'Result type', kind: 'text', width: 150, text: (r) => r.resultName },
  {
    key: 'results',
    label: 'Results',
    kind: 'integer',
    width: 104,
    metric: { of: (v) => v.results, good: 'up' },
  },
  {
    key: 'costPerResult',
    label: 'Cost per result',
    kind: 'money',
    width: 116,
    metric: { of: (v) => v.costPerResult, good: 'down' },
  },
  {
    key: 'spend',
    label: 'Spend',
    kind: 'money',
    width: 122,
    metric: { of: (v) => v.spend, good: 'neutral' },
  },
  {
    key: 'revenue',
    label: 'Purchase value',
    kind: 'money',
    width: 122,
    metric: { of: (v) => v.revenue, good: 'up' },
  },
  { key: 'roas', label: 'ROAS', kind: 'ratio', width: 92, metric: { of: (v) => v.roas, good: 'up' } },
  {
    key: 'impressions',
    label: 'Impressions',
    kind: 'integer',
    width: 112,
    metric: { of: (v) => v.impressions, good: 'up' },
  },
  { key: 'reach', label: 'Reach', kind: 'integer', width: 104, metric: { of: (v) => v.reach, good: 'up' } },
  {
    key: 'frequency',
    label: 'Frequency',
    kind: 'decimal',
    width: 96,
    metric: { of: (v) => v.frequency, good: 'neutral' },
  },
  { key: 'cpm', label: 'CPM', kind: 'money', width: 96, metric: { of: (v) => v.cpm, good: 'down' } },
  {
    key: 'linkClicks',
    label: 'Link clicks',
    kind: 'integer',
    width: 104,
    metric: { of: (v) => v.linkClicks, good: 'up' },
  },
  { key: 'ctr', label: 'CTR (link)', kind: 'percent', width: 96, metric: { of: (v) => v.ctr, good: 'up' } },
  { key: 'cpc', label: 'CPC (link)', kind: 'money', width: 96, metric: { of: (v) => v.cpc, good: 'down' } },
  {
    key: 'clicks',
    label: 'Clicks (all)',
    kind: 'integer',
    width: 104,
    metric: { of: (v) => v.clicks, good: 'up' },
  },
  { key: 'budget', label: 'Daily budget', kind: 'money', width: 104, text: (r) => r.dailyBudget },
  {
    key: 'diagnostic',
    label: 'Latest diagnostic',
    kind: 'text',
    width: 150,
    text: (r) =>
      r.latestDiagnostic
        ? `${r.latestDiagnostic.riskLevel ?? 'No risk'} · ${r.latestDiagnostic.issuesDetected} issue${r.latestDiagnostic.issuesDetected === 1 ? '' : 's'}`
        : null,
  },
];

export const COLUMN_BY_KEY = new Map(COLUMNS.map((c) => [c.key, c]));

/** Ads Manager's column presets. */
export const COLUMN_SETS: Record<
  'performance' | 'delivery' | 'engagement',
  { label: string; columns: string[] }
> = {
  performance: {
    label: 'Performance',
    columns: [
      'name',
      'status',
      'resultType',
      'results',
      'costPerResult',
      'spend',
      'roas',
      'budget',
      'diagnostic',
    ],
  },
  delivery: {
    label: 'Delivery',
    columns: ['name', 'account', 'status', 'spend', 'impressions', 'reach', 'frequency', 'cpm', 'budget'],
  },
  engagement: {
    label: 'Engagement',
    columns: ['name', 'resultType', 'impressions', 'linkClicks', 'ctr', 'cpc', 'clicks', 'spend'],
  },
};

/** The columns of a list of keys, in that order, unknown keys dropped (an older saved view). */
export function columnsOf(keys: readonly string[]): CampaignColumn[] {
  return keys.map((k) => COLUMN_BY_KEY.get(k)).filter((c): c is CampaignColumn => c !== undefined);
}

/** A row's value in a column: a metric over the range (or `previous`), or the column's text. */
export function cellValue(
  column: CampaignColumn,
  row: CampaignRow,
  previous = false,
): string | number | null {
  if (column.metric) {
    const m = previous ? row.previous : row;
    return m ? column.metric.of(rowValues(m, row.resultType)) : null;
  }
  return previous ? null : (column.text?.(row) ?? null);
}

/** The sort key of a row in a column: missing numbers sort last whichever the direction. */
export function sortValue(column: CampaignColumn, row: CampaignRow): string | number | null {
  if (column.key === 'name') return row.name.toLowerCase();
  if (column.key === 'diagnostic')
    return row.latestDiagnostic
      ? (RISK_ORDER[row.latestDiagnostic.riskLevel ?? ''] ?? 0) * 1000 + row.latestDiagnostic.issuesDetected
      : null;
  const value = cellValue(column, row);
  return typeof value === 'string' ? value.toLowerCase() : value;
}

/** Rows sorted by a column; ties by name, missing values last. */
export function sortRows(rows: readonly CampaignRow[], key: string, dir: 'asc' | 'desc'): CampaignRow[] {
  const column = COLUMN_BY_KEY.get(key) ?? (COLUMN_BY_KEY.get('spend') as CampaignColumn);
  const sign = dir === 'asc' ? 1 : -1;
  const keyed = rows.map((row) => ({ row, value: sortValue(column, row) }));
  keyed.sort((a, b) => {
    if (a.value === null || b.value === null) {
      if (a.value === b.value) return a.row.name.localeCompare(b.row.name);
      return a.value === null ? 1 : -1;
    }
    const order = a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
    return order * sign || a.row.name.localeCompare(b.row.name);
  });
  return keyed.map((k) => k.row);
}
