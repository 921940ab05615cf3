// Unlike results are not added up: leads, app installs and purchases are reported per result type,
// each with its own cost per result, and ROAS only where there is purchase value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReportContent } from './content';
import { renderMarkdown } from './markdown';
import { renderPdf } from './pdf/render';
import { pdfText } from '../../test-support/pdf';
import { harness, type Harness } from '../../test-support/reports-harness';

let h: Harness;
const TYPES = [
  ['LEAD', 'Leads (website)'],
  ['APP_INSTALL', 'App installs'],
  ['PURCHASE', 'Purchases'],
] as const;

beforeAll(() => {
  h = harness({ campaigns: 3 });
  TYPES.forEach(([type, name], i) => {
    const id = h.fixture.campaignIds[i] ?? '';
    h.core.db
      .prepare(`UPDATE campaigns SET result_type = ?, result_name = ? WHERE id = ?`)
      .run(type, name, id);
    // Only purchases carry a purchase value.
    if (type !== 'PURCHASE') {
      h.core.db
        .prepare(`UPDATE insights_campaign_daily SET revenue_micros = 0 WHERE campaign_id = ?`)
        .run(id);
    }
  });
});
afterAll(() => h.cleanup());

const build = (campaignIds: readonly string[]) =>
  buildReportContent(h.core.sql, {
    reportId: 'rpt_Results000000000',
    workspaceId: h.fixture.workspaceId,
    accountId: h.fixture.accountId,
    campaignIds,
    title: 'Results',
    dateFrom: '2026-01-01',
    dateTo: '2026-01-31',
    userId: h.fixture.userId,
    generatedAt: new Date('2026-04-01T08:00:00.000Z'),
  });

describe('report results by type', () => {
  it('totals each result type apart, with its own cost per result; ROAS only with purchase value', async () => {
    const c = await build(h.fixture.campaignIds);
    expect(c.results.map((r) => r.resultType).sort()).toEqual(['APP_INSTALL', 'LEAD', 'PURCHASE']);
    for (const r of c.results) {
      const campaign = c.campaigns.find((x) => x.resultType === r.resultType);
      expect(r.results).toBe(campaign?.conversions);
      expect(r.costPerResult).toBeCloseTo((campaign?.spend ?? 0) / (campaign?.conversions ?? 1), 2);
    }
    const byType = new Map(c.campaigns.map((x) => [x.resultType, x]));
    expect(byType.get('LEAD')?.roas).toBeNull();
    expect(byType.get('APP_INSTALL')?.roas).toBeNull();
    expect(byType.get('PURCHASE')?.roas).toBeGreaterThan(0);
    expect(c.revenue).toBeGreaterThan(0);
  });

  it('the PDF and Markdown show results per type, no "Conversions" sum or CPA across them, no 0.00x', async () => {
    const c = await build(h.fixture.campaignIds);
    const text = pdfText(await renderPdf(c));
    expect(text).toContain('Results by type');
    for (const [, name] of TYPES) expect(text).toContain(name);
    expect(text).not.toContain('Average CPA');
    expect(text).not.toMatch(/\bConversions\b/);
    expect(text).not.toContain('0.00x');
    expect(text).toContain('Average ROAS');
    const markdown = renderMarkdown(c);
    expect(markdown).not.toContain('Total conversions');
    expect(markdown).not.toContain('0.00x');
    for (const [, name] of TYPES) expect(markdown).toContain(`| ${name} |`);
  });

  it('a report of one result type names it, with its cost per result, and no ROAS without purchase value', async () => {
    const lead = h.fixture.campaignIds[0] ?? '';
    const text = pdfText(await renderPdf(await build([lead])));
    expect(text).toContain('Leads (website)');
    expect(text).toContain('Cost per result');
    expect(text).not.toContain('Average ROAS');
    expect(text).not.toContain('0.00x');
  });
});
