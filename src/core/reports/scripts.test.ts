// A report readable in any script: campaign names and the title in Japanese, Korean, Chinese, Russian,
// Arabic…, checked from the PDF's own text and fonts with MuPDF.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReportContent } from './content';
import { renderPdf } from './pdf/render';
import { renderMarkdown } from './markdown';
import { fontFamiliesFor } from './pdf/fonts';
import { pdfFonts, pdfGlyphs, pdfText } from '../../test-support/pdf';
import { harness, type Harness } from '../../test-support/reports-harness';

const ARABIC = 'عملاء | الرياض | ربيع';
const NAMES = [
  'リード | 東京 | シニア',
  '리드 | 서울 | 시니어',
  '潜在客户 | 北京 | 广告',
  '潛在客戶 | 臺北 | 廣告',
  'Лиды | Москва | Весна',
  ARABIC,
  'CPA ≤ 500 → ≥ 3',
];
const TITLE = '月次レポート 11月';

let h: Harness;
beforeAll(() => {
  h = harness({ campaigns: NAMES.length });
  const rename = h.core.db.prepare(`UPDATE campaigns SET name = ? WHERE id = ?`);
  NAMES.forEach((name, i) => rename.run(name, h.fixture.campaignIds[i]));
  h.core.db.prepare(`UPDATE ad_accounts SET currency = 'JPY' WHERE id = ?`).run(h.fixture.accountId);
});
afterAll(() => h.cleanup());

/** The analyst's commentary in the client's language: scripts mixed with bold and italic runs. */
const COMMENTARY = '東京の**リード**が増加。서울은 *안정*.\n\n- Москва: рост\n- 北京 广告 → 稳定';

function content(title: string, locale: 'en' | 'ja' = 'en') {
  return buildReportContent(h.core.sql, {
    locale,
    commentary: COMMENTARY,
    reportId: 'rpt_Scripts000000000',
    workspaceId: h.fixture.workspaceId,
    accountId: h.fixture.accountId,
    campaignIds: h.fixture.campaignIds,
    title,
    dateFrom: '2026-01-01',
    dateTo: '2026-01-31',
    userId: h.fixture.userId,
    generatedAt: new Date('2026-04-01T08:00:00.000Z'),
  });
}

describe('a PDF in any script', () => {
  it('has the title and every campaign name as real text, each glyph from an embedded Noto subset', async () => {
    const pdf = await renderPdf(await content(TITLE));
    // No glyph is the missing-glyph box, and every glyph without a Unicode value is one of Noto Sans
    // Arabic's dot marks (it draws ي as a dotless form plus two dots; only the form maps to ي).
    const glyphs = pdfGlyphs(pdf);
    expect(glyphs.filter((g) => g.glyph === 0)).toEqual([]);
    const unmapped = glyphs.filter((g) => g.unicode < 0 || g.unicode === 0xfffd);
    expect(new Set(unmapped.map((g) => g.font))).toEqual(new Set(['NotoSansArabic-Regular']));
    const text = pdfText(pdf).replaceAll('\uFFFD', '');
    expect(text).toContain(TITLE);
    for (const name of NAMES.filter((n) => n !== ARABIC)) expect(text).toContain(name);
    for (const line of ['東京のリードが増加。서울은 안정.', 'Москва: рост', '北京 广告 → 稳定'])
      expect(text).toContain(line);
    // Every character of the title and the names is drawn (none dropped), Arabic included.
    const drawn = new Set(text);
    for (const ch of [...TITLE, ...NAMES.join('')].filter((c) => c.trim())) expect(drawn).toContain(ch);
    // The Arabic name is drawn right to left; MuPDF reads a line whose separators come from another
    // font left to right, so its words come out in visual order, each word in logical order.
    expect(text).toContain(ARABIC.split(' | ').reverse().join(' | '));
    const fonts = pdfFonts(pdf);
    const names = fonts.map((f) => f.name);
    for (const family of [
      'NotoSans-Regular',
      'NotoSansJP-Regular',
      'NotoSansKR-Regular',
      'NotoSansSC-Regular',
    ]) {
      expect(names).toContain(family);
    }
    expect(names).toContain('NotoSansArabic-Regular');
    expect(fonts.every((f) => f.embedded && f.subset)).toBe(true);
    expect(names.join(' ')).not.toMatch(/Helvetica/);
    // Subsets keep the file small: tens of megabytes of CJK fonts become a few kilobytes.
    expect(pdf.length).toBeLessThan(150_000);
  });

  it('draws arrows and comparisons in a Latin report with Noto Sans Math, and embeds no CJK font', async () => {
    const latin = harness({ campaigns: 3 });
    try {
      const pdf = await renderPdf(
        await buildReportContent(latin.core.sql, {
          reportId: 'rpt_Scripts000000001',
          workspaceId: latin.fixture.workspaceId,
          accountId: latin.fixture.accountId,
          campaignIds: latin.fixture.campaignIds,
          title: 'CPA 12 → 18, ROAS ≥ 2 ≤ 3',
          dateFrom: '2026-01-01',
          dateTo: '2026-01-31',
          userId: latin.fixture.userId,
          generatedAt: new Date('2026-04-01T08:00:00.000Z'),
        }),
      );
      expect(pdfText(pdf)).toContain('CPA 12 → 18, ROAS ≥ 2 ≤ 3');
      expect(pdfGlyphs(pdf).filter((g) => g.glyph === 0)).toEqual([]);
      expect(new Set(pdfFonts(pdf).map((f) => f.name))).toEqual(
        new Set(['NotoSans-Regular', 'NotoSans-Bold', 'NotoSansMath-Regular']),
      );
    } finally {
      latin.cleanup();
    }
  });

  it('uses Japanese dates, numbers and labels in the ja locale, English by default', async () => {
    const ja = pdfText(await renderPdf(await content(TITLE, 'ja')));
    for (const phrase of [
      'パフォーマンスレポート',
      '2026年1月1日 – 2026年1月31日',
      'サマリー',
      '合計消化金額',
      'キャンペーン',
      '日別パフォーマンス',
      '1月1日',
    ]) {
      expect(ja).toContain(phrase);
    }
    for (const name of NAMES.filter((n) => n !== ARABIC)) expect(ja).toContain(name);
    expect(ja).toMatch(/2 \/ \d ページ/);
    expect(ja).toContain('アナリストのコメント');
    expect(ja).toContain('主要指標');
    expect(ja).not.toContain('Summary');
    expect(ja).not.toMatch(/Page \d+ of/);
    const markdown = renderMarkdown(await content(TITLE, 'ja'));
    expect(markdown).toContain('## サマリー');
    expect(markdown).toContain('| 2026年1月1日 |');
    expect((await content(TITLE, 'ja')).andromedaContext.description).toMatch(/^診断は/);
    const en = pdfText(await renderPdf(await content(TITLE)));
    expect(en).toContain('1 Jan 2026 – 31 Jan 2026');
    expect(en).toContain('Summary');
    expect(en).toMatch(/Page 2 of \d/);
  });

  it('loads only the fallbacks a report needs', async () => {
    expect(fontFamiliesFor('Q1 Performance — Отчёт')).toEqual(['Noto Sans']);
    expect(fontFamiliesFor('CPA 12 → 18')).toEqual(['Noto Sans', 'Noto Sans Math']);
    expect(fontFamiliesFor(TITLE)).toEqual(['Noto Sans', 'Noto Sans JP', 'Noto Sans SC', 'Noto Sans TC']);
    expect(fontFamiliesFor('潜在客户')).toEqual(['Noto Sans', 'Noto Sans SC', 'Noto Sans TC']);
    expect(fontFamiliesFor('리드 ลูกค้า לידים')).toEqual([
      'Noto Sans',
      'Noto Sans KR',
      'Noto Sans Thai',
      'Noto Sans Hebrew',
    ]);
  });
});
