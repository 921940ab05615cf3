// The campaigns table's numbers and exports, as pure functions: totals per result type and currency
// with ratios recomputed from totals, deltas coloured by what is good for the metric, CSV quoting,
// and an XLSX read back by an independent parser (Python's zipfile and ElementTree).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CampaignMetrics, CampaignRow } from '../../../../shared/ipc';
import { readXlsx } from '../../../../test-support/xlsx-reader';
import { columnsOf, sortRows } from './columns';
import { exportTable, toCsv, toXlsx } from './export';
import { deltaOf, totalsOf } from './table-metrics';

function metrics(over: Partial<CampaignMetrics>): CampaignMetrics {
  const m = {
    spend: 0,
    impressions: 0,
    clicks: 0,
    conversions: 0,
    revenue: 0,
    linkClicks: 0,
    reach: 0,
    ...over,
  };
  return {
    ...m,
    cpa: m.conversions ? Math.round((m.spend / m.conversions) * 100) / 100 : null,
    roas: m.spend ? Math.round((m.revenue / m.spend) * 10000) / 10000 : null,
    ctr: m.impressions ? Math.round((m.linkClicks / m.impressions) * 1_000_000) / 10_000 : null,
    cpm: m.impressions ? Math.round((m.spend / m.impressions) * 100_000) / 100 : null,
    frequency: m.reach ? Math.round((m.impressions / m.reach) * 10000) / 10000 : null,
  };
}

function row(
  name: string,
  resultName: string,
  m: Partial<CampaignMetrics>,
  prev?: Partial<CampaignMetrics>,
  currency = 'USD',
): CampaignRow {
  return {
    id: `camp_${name}`,
    platformCampaignId: '1',
    accountId: 'act_1',
    accountName: 'Client A',
    name,
    status: 'ACTIVE',
    objective: 'OUTCOME_SALES',
    resultType: resultName.toUpperCase(),
    resultName,
    bidStrategy: null,
    dailyBudget: 50,
    lifetimeBudget: null,
    currency,
    adSetCount: 1,
    adCount: 1,
    synced: true,
    lastSyncedAt: null,
    latestDiagnostic: null,
    ...metrics(m),
    previous: prev ? metrics(prev) : null,
  };
}

const rows = [
  row(
    'Shoes | Prospecting',
    'Purchases',
    { spend: 300, conversions: 10, revenue: 900, impressions: 30000, linkClicks: 300, reach: 20000 },
    { spend: 200, conversions: 5, revenue: 500, impressions: 20000, linkClicks: 100, reach: 10000 },
  ),
  row(
    'Shoes "retargeting", EU',
    'Purchases',
    { spend: 100, conversions: 10, revenue: 100, impressions: 10000, linkClicks: 100, reach: 5000 },
    { spend: 100, conversions: 5, revenue: 100, impressions: 10000, linkClicks: 100, reach: 5000 },
  ),
  row(
    '=Leads form\nline two',
    'Leads (form)',
    { spend: 50, conversions: 25, impressions: 5000, linkClicks: 50, reach: 2500 },
    { spend: 40, conversions: 10, impressions: 4000, linkClicks: 40, reach: 2000 },
  ),
];

describe('totals', () => {
  it('totals results per result type, never across types, and recomputes ratios from totals', () => {
    const t = totalsOf(rows, (r) => r);
    expect(t.byResultType).toEqual([
      { name: 'Leads (form)', results: 25, costPerResult: 2 },
      { name: 'Purchases', results: 20, costPerResult: 20 },
    ]);
    expect(t.values.results).toBeNull();
    expect(t.values.costPerResult).toBeNull();
    expect(t.values.spend).toBe(450);
    // ROAS = 1000 / 450, not the mean of 3, 1 and 0.
    expect(t.values.roas).toBe(2.2222);
    expect(t.values.ctr).toBe(1); // 450 link clicks / 45,000 impressions
    expect(t.values.cpm).toBe(10);
    expect(t.values.frequency).toBe(1.6364); // 45,000 / 27,500
    const purchases = totalsOf(rows.slice(0, 2), (r) => r);
    // One result type: one cost per result, 400 / 20.
    expect(purchases.values.results).toBe(20);
    expect(purchases.values.costPerResult).toBe(20);
    expect(purchases.values.cpc).toBe(1);
    const skewed = totalsOf([rows[0]!, rows[2]!], (r) => r);
    expect(skewed.values.cpc).toBe(1); // 350 / 350 link clicks
    expect(skewed.values.ctr).toBeCloseTo(1, 4);
  });

  it('does not add money across currencies', () => {
    const mixed = [
      ...rows,
      row('Tokyo', 'Purchases', { spend: 10000, conversions: 2, revenue: 30000 }, undefined, 'JPY'),
    ];
    const t = totalsOf(mixed, (r) => r);
    expect(t.currency).toBeNull();
    expect(t.values.spend).toBeNull();
    expect(t.values.cpm).toBeNull();
    expect(t.byResultType.find((x) => x.name === 'Purchases')).toEqual({
      name: 'Purchases',
      results: 22,
      costPerResult: null,
    });
  });
});

describe('deltas', () => {
  it('colours a change by whether it is good for the metric', () => {
    expect(deltaOf(8, 10, 'down')).toEqual({ absolute: -2, percent: -20, tone: 'good' });
    expect(deltaOf(12, 10, 'down')).toEqual({ absolute: 2, percent: 20, tone: 'bad' });
    expect(deltaOf(12, 10, 'up')).toMatchObject({ tone: 'good' });
    expect(deltaOf(12, 10, 'neutral')).toMatchObject({ tone: 'neutral' });
    expect(deltaOf(5, 0, 'up')).toEqual({ absolute: 5, percent: null, tone: 'good' });
    expect(deltaOf(null, 10, 'up')).toBeNull();
    expect(deltaOf(10, 10, 'up')).toMatchObject({ tone: 'neutral', percent: 0 });
    expect(deltaOf(0, 0, 'up')).toEqual({ absolute: 0, percent: 0, tone: 'neutral' });
  });
});

describe('sorting', () => {
  it('sorts by a metric with missing values last in both directions', () => {
    const withNone = [...rows, row('Idle', 'Purchases', {})];
    expect(
      sortRows(withNone, 'costPerResult', 'asc')
        .map((r) => r.name)
        .at(-1),
    ).toBe('Idle');
    expect(
      sortRows(withNone, 'costPerResult', 'desc')
        .map((r) => r.name)
        .at(-1),
    ).toBe('Idle');
    expect(sortRows(withNone, 'costPerResult', 'asc')[0]!.resultName).toBe('Leads (form)');
  });
});

describe('export', () => {
  const columns = columnsOf(['name', 'resultType', 'results', 'costPerResult', 'spend', 'roas', 'ctr']);
  const sorted = sortRows(rows, 'spend', 'desc');
  const totals = { current: totalsOf(sorted, (r) => r), previous: totalsOf(sorted, (r) => r.previous) };
  const dir = mkdtempSync(join(tmpdir(), 'adlens-export-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes CSV with quoting, formula guard, changes and the totals row', () => {
    const csv = toCsv(exportTable(sorted, columns, totals, true));
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      'Campaign,Result type,Results,Results change,Results change %,Cost per result,Cost per result change,Cost per result change %,Spend,Spend change,Spend change %,ROAS,ROAS change,ROAS change %,CTR (link),CTR (link) change,CTR (link) change %,Currency',
    );
    expect(lines[1]).toBe(
      'Shoes | Prospecting,Purchases,10,5,100,30,-10,-25,300,100,50,3,0.5,20,1,0.5,100,USD',
    );
    expect(lines[2]).toMatch(/^"Shoes ""retargeting"", EU",Purchases,10,/);
    // A name starting with "=" is not a formula; a line break stays inside its quoted field.
    expect(csv).toContain(`"'=Leads form\nline two",Leads (form),25,15,150,2,`);
    const total = lines.find((l) => l.startsWith('Total'))!;
    expect(total).toMatch(
      /^Total \(3 campaigns\),25 Leads \(form\) · 20 Purchases,,,,,,,450,110,32\.4,2\.2222,/,
    );
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('writes an XLSX that an independent reader opens: numbers as numbers, money with its currency', () => {
    const path = join(dir, 'campaigns.xlsx');
    writeFileSync(path, toXlsx(exportTable(sorted, columns, totals, false)));
    const book = readXlsx(path);
    expect(book.sheetName).toBe('Campaigns');
    console.info(`xlsx read back with ${book.reader}`);
    const [header, first, , third, total] = book.rows;
    expect(header!.map((c) => c.value)).toEqual([
      'Campaign',
      'Result type',
      'Results',
      'Cost per result',
      'Spend',
      'ROAS',
      'CTR (link)',
    ]);
    expect(header!.every((c) => c.bold)).toBe(true);
    expect(first!.map((c) => [c.type, c.value])).toEqual([
      ['inlineStr', 'Shoes | Prospecting'],
      ['inlineStr', 'Purchases'],
      ['n', '10'],
      ['n', '30'],
      ['n', '300'],
      ['n', '3'],
      ['n', '1'],
    ]);
    expect(first![3]!.numFmt).toBe('#,##0.00 "USD"');
    expect(first![2]!.numFmt).toBe('#,##0');
    expect(first![5]!.numFmt).toBe('0.00"×"');
    expect(third![0]!.value).toBe('=Leads form\nline two');
    expect(third![0]!.type).toBe('inlineStr');
    expect(total![0]!.value).toBe('Total (3 campaigns)');
    expect(total![0]!.bold).toBe(true);
    expect(total!.find((c) => c.ref === 'E5')).toMatchObject({
      type: 'n',
      value: '450',
      numFmt: '#,##0.00 "USD"',
    });
    // Results of unlike types are not one number.
    expect(total!.find((c) => c.ref === 'C5')?.value ?? '').toBe('');
    expect(total!.find((c) => c.ref === 'B5')?.value).toBe('25 Leads (form) · 20 Purchases');
  });

  it('formats yen without minor units', () => {
    const path = join(dir, 'jpy.xlsx');
    const yen = [row('東京 | リード', 'Leads (form)', { spend: 12000, conversions: 4 }, undefined, 'JPY')];
    writeFileSync(
      path,
      toXlsx(
        exportTable(
          yen,
          columnsOf(['name', 'spend']),
          { current: totalsOf(yen, (r) => r), previous: null },
          false,
        ),
      ),
    );
    const book = readXlsx(path);
    expect(book.rows[1]).toEqual([
      expect.objectContaining({ value: '東京 | リード' }),
      expect.objectContaining({ value: '12000', numFmt: '#,##0 "JPY"' }),
    ]);
  });
});
