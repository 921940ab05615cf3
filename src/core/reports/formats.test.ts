import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marked, type Tokens } from 'marked';
import { ReportContentSchema, type ReportContent, type WhiteLabel } from '../../shared/api/reports';
import { campaignInsights, insightsSummary } from '../insights';
import { buildReportContent } from './content';
import { seedDiagnostic } from '../../test-support/reports-fixtures';
import { renderMarkdown } from './markdown';
import { renderPdf } from './pdf/render';
import { inkCoverage, pdfFonts, pdfImages, pdfPagePng, pdfPages, pdfText } from '../../test-support/pdf';
import { harness, pngLogo, type Harness } from '../../test-support/reports-harness';

const RANGE = { dateFrom: '2026-01-01', dateTo: '2026-03-31' };
const WHITE_LABEL: WhiteLabel = {
  companyName: 'Agence Lumière',
  logo: pngLogo(160, 48, [15, 118, 110]),
  primaryColor: '#0F766E',
  footerText: 'Confidentiel — préparé pour Boulangerie Électrique',
};

let h: Harness;
beforeAll(() => {
  h = harness({ campaigns: 20 });
  const { workspaceId, accountId, campaignIds } = h.fixture;
  const at = (i: number) => ({ workspaceId, accountId, campaignId: campaignIds[i] ?? '' });
  // Campaign 0: an old HIGH diagnostic superseded by a newer MEDIUM one; campaign 1: CRITICAL but outside the range.
  seedDiagnostic(h.core.db, at(0), {
    riskLevel: 'HIGH',
    from: '2026-02-01',
    to: '2026-02-14',
    completedAt: '2026-02-15T08:00:00.000Z',
  });
  seedDiagnostic(h.core.db, at(0), {
    riskLevel: 'MEDIUM',
    from: '2026-03-01',
    to: '2026-03-28',
    completedAt: '2026-03-29T08:00:00.000Z',
  });
  seedDiagnostic(h.core.db, at(1), {
    riskLevel: 'CRITICAL',
    from: '2025-10-01',
    to: '2025-10-14',
    completedAt: '2025-10-15T08:00:00.000Z',
  });
  for (let i = 2; i < 20; i += 3) {
    seedDiagnostic(h.core.db, at(i), {
      riskLevel: 'LOW',
      from: '2026-03-10',
      to: '2026-03-24',
      completedAt: '2026-03-25T08:00:00.000Z',
    });
  }
});
afterAll(() => h.cleanup());

function content(campaignIds: readonly string[], whiteLabel?: WhiteLabel): Promise<ReportContent> {
  return buildReportContent(h.core.sql, {
    reportId: 'rpt_Format0000000000',
    workspaceId: h.fixture.workspaceId,
    accountId: h.fixture.accountId,
    campaignIds,
    title: 'Q1 Performance — Отчёт',
    ...RANGE,
    whiteLabel,
    userId: h.fixture.userId,
    generatedAt: new Date('2026-04-01T08:00:00.000Z'),
  });
}

describe('report content', () => {
  it('matches the insights summary and per-campaign insights exactly', async () => {
    const ids = h.fixture.campaignIds.slice(0, 8);
    const c = ReportContentSchema.parse(await content(ids));
    const s = await insightsSummary(h.core.sql, {
      accountIds: [h.fixture.accountId],
      campaignIds: ids,
      from: RANGE.dateFrom,
      to: RANGE.dateTo,
      currency: 'EUR',
    });
    expect(c.totals).toEqual({
      spend: s.totals.spend,
      impressions: s.totals.impressions,
      clicks: s.totals.clicks,
      conversions: s.totals.conversions,
      cpa: s.totals.cpa,
      roas: s.totals.roas,
      ctr: s.totals.ctr,
      cpm: s.totals.cpm,
    });
    expect(c.summary).toMatchObject({
      totalSpend: s.totals.spend,
      totalConversions: s.totals.conversions,
      avgCpa: s.totals.cpa,
      avgRoas: s.totals.roas,
    });
    expect(c.summary.changes).toEqual(s.trends);
    expect(c.daily).toEqual(
      s.timeSeries.map(({ date, spend, conversions, cpa }) => ({ date, spend, conversions, cpa })),
    );
    const per = await campaignInsights(h.core.sql, ids, RANGE.dateFrom, RANGE.dateTo);
    for (const campaign of c.campaigns) {
      const m = per.get(campaign.id);
      expect(campaign).toMatchObject({
        spend: m?.spend,
        conversions: m?.conversions,
        cpa: m?.cpa,
        roas: m?.roas,
        ctr: m?.ctr,
        cpm: m?.cpm,
      });
    }
    expect(c.previousDateRange).toEqual({ from: '2025-10-03', to: '2025-12-31' });
  });

  it('takes each campaign’s latest diagnostic in range; the overall risk is the highest of them', async () => {
    const c = await content(h.fixture.campaignIds);
    const byId = new Map(c.campaigns.map((x) => [x.id, x]));
    const first = byId.get(h.fixture.campaignIds[0] ?? '');
    expect(first?.riskLevel).toBe('MEDIUM');
    expect(first?.latestDiagnostic?.recommendations.map((r) => r.priority)).toEqual([1, 2]);
    expect(byId.get(h.fixture.campaignIds[1] ?? '')?.latestDiagnostic).toBeNull();
    expect(c.summary.overallRiskLevel).toBe('MEDIUM');
    expect((await content(h.fixture.campaignIds.slice(1, 2))).summary.overallRiskLevel).toBe('LOW');
    expect(c.andromedaContext).toMatchObject({ riskAppetite: 'MEDIUM', focusMetric: 'CPA' });
    // An account-wide diagnostic, newer than campaign 0's own: narrowed to each campaign's issues.
    const { workspaceId, accountId, campaignIds } = h.fixture;
    const accountWide = seedDiagnostic(
      h.core.db,
      { workspaceId, accountId, campaignId: null, issueCampaignId: campaignIds[1] ?? '' },
      {
        riskLevel: 'CRITICAL',
        from: '2026-03-20',
        to: '2026-03-30',
        completedAt: '2026-03-31T08:00:00.000Z',
      },
    );
    const wide = new Map((await content(campaignIds.slice(0, 3))).campaigns.map((x) => [x.id, x]));
    expect(wide.get(campaignIds[1] ?? '')?.latestDiagnostic).toMatchObject({
      id: accountWide,
      scope: 'account',
      riskLevel: 'HIGH',
      issues: [{ id: 'issue_1' }],
      recommendations: [{ priority: 1 }, { priority: 2 }],
    });
    expect(wide.get(campaignIds[0] ?? '')?.latestDiagnostic).toMatchObject({
      id: accountWide,
      riskLevel: 'LOW',
      issues: [],
      recommendations: [],
    });
    h.core.db.prepare(`DELETE FROM diagnostics WHERE id = ?`).run(accountWide);
    h.core.db
      .prepare(
        `INSERT INTO andromeda_profiles (user_id, risk_appetite, focus_metric, updated_at) VALUES (?, 'HIGH', 'ROAS', ?)`,
      )
      .run(h.fixture.userId, '2026-03-01T00:00:00.000Z');
    expect((await content(h.fixture.campaignIds.slice(0, 1))).andromedaContext).toMatchObject({
      riskAppetite: 'HIGH',
      focusMetric: 'ROAS',
    });
    h.core.db.prepare(`DELETE FROM andromeda_profiles`).run();
  });
});

describe('Markdown format', () => {
  it('is GitHub-flavoured Markdown whose tables parse with the expected headers and rows', async () => {
    const ids = h.fixture.campaignIds.slice(0, 6);
    const c = await content(ids);
    const tokens = marked.lexer(renderMarkdown(c), { gfm: true });
    const tables = tokens.filter((t): t is Tokens.Table => t.type === 'table');
    const headers = tables.map((t) => t.header.map((cell) => cell.text).join(','));
    expect(headers).toContain('Metric,Value,Change vs previous period');
    expect(headers).toContain('Campaign,Result,Spend,Results,Cost per result,ROAS,CTR,CPM,Risk level');
    expect(headers).toContain('Date,Spend,Conversions,CPA');
    const campaigns = tables.find((t) => t.header[0]?.text === 'Campaign');
    expect(campaigns?.rows).toHaveLength(6);
    // A pipe inside a name stays inside its cell.
    const names = campaigns?.rows.map((row) => row[0]?.text.replaceAll('\\', '')) ?? [];
    expect(names).toEqual(
      expect.arrayContaining(['Кампания Осень', 'Été Promo Société', 'Spring Sale | Retargeting']),
    );
    expect(campaigns?.rows.every((row) => row.length === 9)).toBe(true);
    expect(tables.find((t) => t.header[0]?.text === 'Date')?.rows).toHaveLength(90);
    // The summary table (the key-figures table also starts with "Metric", and has a previous column).
    const summary = tables.find((t) => t.header[0]?.text === 'Metric' && t.header.length === 3);
    const spend = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(
      c.summary.totalSpend,
    );
    expect(summary?.rows[0]?.map((x) => x.text)).toEqual([
      'Total spend',
      spend,
      expect.stringMatching(/^[+-±]\d+\.\d%$|^no comparison$/),
    ]);
    const headings = tokens.filter((t): t is Tokens.Heading => t.type === 'heading').map((t) => t.text);
    expect(headings[0]).toBe('Q1 Performance — Отчёт');
    expect(headings).toEqual(
      expect.arrayContaining([
        'Summary',
        'Campaigns',
        'Daily performance',
        'Diagnostics',
        'Andromeda context',
      ]),
    );
  });

  it('carries white-label branding instead of AdLens when asked, and AdLens otherwise', async () => {
    const ids = h.fixture.campaignIds.slice(0, 3);
    const plain = renderMarkdown(await content(ids));
    expect(plain).toContain('**AdLens**');
    const branded = renderMarkdown(await content(ids, WHITE_LABEL));
    expect(branded).not.toMatch(/AdLens/);
    expect(branded).toContain('**Agence Lumière**');
    expect(branded).toContain('Confidentiel — préparé pour Boulangerie Électrique');
    expect(branded).toContain('![Agence Lumière logo](data:image/png;base64,');
    const json = await content(ids, WHITE_LABEL);
    expect(json.branding).toEqual({
      whiteLabel: true,
      companyName: 'Agence Lumière',
      primaryColor: '#0F766E',
      footerText: WHITE_LABEL.footerText,
      logo: WHITE_LABEL.logo,
    });
    expect(JSON.stringify(json)).not.toMatch(/AdLens/);
  });
});

describe('PDF format (checked with MuPDF from npm)', () => {
  let full: Buffer;
  beforeAll(async () => {
    full = await renderPdf(await content(h.fixture.campaignIds));
  });

  it('has the title, account, totals, and accented and Cyrillic names as real text', async () => {
    const c = await content(h.fixture.campaignIds);
    const text = pdfText(full);
    expect(text).toContain('Q1 Performance — Отчёт');
    expect(text).toContain('Boulangerie Électrique — Москва');
    expect(text).toContain('Кампания Осень');
    expect(text).toContain('Été Promo Société');
    const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' });
    expect(text).toContain(money.format(c.summary.totalSpend));
    expect(text).toContain(money.format(c.summary.avgCpa ?? -1));
    expect(text).toContain(new Intl.NumberFormat('en-US').format(c.summary.totalConversions));
    expect(text).toMatch(/Page 2 of \d+/);
    expect(text).toContain('AdLens');
    const fonts = pdfFonts(full);
    // Noto Sans embedded as a subset composite font (CID TrueType, Identity-H), never a standard 14 font.
    expect(fonts).toContainEqual(
      expect.objectContaining({
        name: 'NotoSans-Regular',
        type: 'Type0',
        descendantType: 'CIDFontType2',
        encoding: 'Identity-H',
        embedded: true,
        subset: true,
      }),
    );
    expect(fonts.every((f) => f.embedded)).toBe(true);
    expect(fonts.map((f) => f.name).join(' ')).not.toMatch(/Helvetica/);
  });

  it('repeats table headers on every page a table continues on', async () => {
    const pages = pdfPages(full);
    let dailyHeaders = 0;
    for (let page = 2; page <= pages; page += 1) {
      if (/Date\s+Spend\s+Conversions\s+CPA/.test(pdfText(full, page))) dailyHeaders += 1;
    }
    expect(dailyHeaders).toBeGreaterThanOrEqual(2);
  });

  it('grows in pages with more campaigns, and page 1 renders to an image with content', async () => {
    const small = await renderPdf(await content(h.fixture.campaignIds.slice(0, 2)));
    expect(pdfPages(full)).toBeGreaterThan(pdfPages(small));
    const png = Buffer.from(pdfPagePng(full, 1, 50));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.length).toBeGreaterThan(5_000);
    expect(inkCoverage(full, 1)).toBeGreaterThan(0.01);
  });

  it('replaces the branding with the white label: name, logo image, footer, no AdLens', async () => {
    const pdf = await renderPdf(await content(h.fixture.campaignIds.slice(0, 3), WHITE_LABEL));
    const text = pdfText(pdf);
    expect(text).toContain('Agence Lumière');
    expect(text).toContain('Confidentiel — préparé pour Boulangerie Électrique');
    expect(text).not.toMatch(/AdLens/);
    expect(pdfImages(pdf)).toContainEqual({ width: 160, height: 48 });
  });
});
