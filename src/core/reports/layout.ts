// Which sections share a PDF page, so that no page is left nearly empty. react-pdf lays out one <Page>
// at a time and re-lays out everything after a break, so sections are grouped into as few flowing
// pages as the rules allow, and separate pages only where the page before is well filled.
// Heights are estimates in points (A4 minus margins, header and footer ≈ 744 pt), tuned on rendered
// reports and checked by a test that reads the real PDF's pages.
import type { ReportContent, ReportSection } from '../../shared/api/reports';
import { parseCommentary } from '../../shared/api/commentary';

export const PAGE_HEIGHT = 744;
/** A page whose content ends above this share of the page is "near-empty". */
export const MIN_FILL = 0.5;

/** `daily2`: the daily table two weeks across (half the height). */
export type PdfBlock = ReportSection | 'daily' | 'daily2';

const TITLE = 30;

/** Text width in "Latin characters": wide scripts (CJK, Hangul, kana) take about two. */
function width(text: string): number {
  let w = 0;
  for (const ch of text)
    w += /[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/.test(ch) ? 1.9 : 1;
  return w;
}

function lines(text: string, perLine: number): number {
  return Math.max(1, Math.ceil(width(text) / perLine));
}

/**
 * A block as the heights (pt) of its unbreakable parts, in order: a section title travels with what
 * follows it, table rows and bands never split (react-pdf's wrap={false}).
 */
export function blockParts(content: ReportContent, block: PdfBlock): number[] {
  switch (block) {
    case 'commentary': {
      const parts = parseCommentary(content.commentary).map(
        (b) => lines(b.runs.map((r) => r.text).join(''), b.kind === 'bullet' ? 95 : 100) * 14 + 5,
      );
      return [TITLE + 16 + (parts[0] ?? 0), ...parts.slice(1)];
    }
    case 'kpis':
      return [TITLE + Math.ceil((content.kpis.length + 1) / 4) * 66];
    case 'summary':
      return [TITLE + 40 + (content.results.length > 1 ? 30 + content.results.length * 14 : 0)];
    case 'goals': {
      if (content.goals.length === 0) return [TITLE + 20];
      const rows = content.goals.map((g) => lines(g.campaignName ?? '', 30) * 11 + 8);
      return [TITLE + 22 + (rows[0] ?? 0), ...rows.slice(1), 12];
    }
    case 'trend':
      return [290];
    case 'campaigns': {
      const rows = content.campaigns.map((c) => lines(c.name, 30) * 11 + 8);
      return [TITLE + 22 + rows.slice(0, 3).reduce((a, b) => a + b, 0), ...rows.slice(3), 12];
    }
    case 'diagnostics': {
      const parts: number[] = [];
      const without = content.campaigns.filter((c) => !c.latestDiagnostic);
      for (const c of content.campaigns) {
        const d = c.latestDiagnostic;
        if (!d) continue;
        let h = 34 + lines(d.summary, 110) * 12;
        for (const i of d.issues) h += 10 + lines(`${i.title} ${i.description}`, 105) * 12;
        for (const r of d.recommendations)
          h += 4 + lines(`${r.action} ${r.rationale} ${r.expectedImpact}`, 105) * 12;
        parts.push(h);
      }
      if (without.length > 0) parts.push(24 + lines(without.map((c) => c.name).join(' · '), 115) * 12);
      parts.push(90); // the Andromeda box
      return [TITLE + (parts[0] ?? 0), ...parts.slice(1)];
    }
    case 'daily':
    case 'daily2': {
      const bands = Math.ceil(content.daily.length / (block === 'daily' ? 7 : 14));
      const band = Math.min(7, content.daily.length) * 13.2 + 7;
      return [TITLE + 40 + band, ...Array.from({ length: Math.max(0, bands - 1) }, () => band), 12];
    }
  }
}

/** How full each page of a group of blocks would be, packing their parts page by page. */
export function simulatePages(content: ReportContent, group: readonly PdfBlock[]): number[] {
  const fills: number[] = [];
  let used = 0;
  for (const part of group.flatMap((b) => blockParts(content, b))) {
    if (used > 0 && used + part > PAGE_HEIGHT) {
      fills.push(used / PAGE_HEIGHT);
      used = 0;
    }
    used += Math.min(part, PAGE_HEIGHT);
  }
  if (used > 0) fills.push(used / PAGE_HEIGHT);
  return fills;
}

/**
 * The content sections in order, grouped into pages (each group one flowing <Page>). Candidates: the
 * overview (commentary, key figures, summary, goals, trend charts, campaigns) and the details
 * (diagnostics, daily table) on separate pages or flowing together, the daily table one or two weeks
 * across. The layout whose emptiest page is fullest wins (up to half full; then fewer pages, then
 * the first candidate: split pages, one week across). A report that fits on one page is one page.
 */
export function planPages(content: ReportContent): PdfBlock[][] {
  const on = new Set<PdfBlock>(content.sections);
  const overview = (['commentary', 'kpis', 'summary', 'goals', 'trend', 'campaigns'] as const).filter((s) =>
    on.has(s),
  );
  const candidates: PdfBlock[][][] = [];
  for (const daily of on.has('trend') ? (['daily', 'daily2'] as const) : [null]) {
    const details: PdfBlock[] = [
      ...(on.has('diagnostics') ? (['diagnostics'] as const) : []),
      ...(daily ? [daily] : []),
    ];
    const groups = [overview, details].filter((g) => g.length > 0);
    candidates.push(groups);
    if (groups.length === 2) candidates.push([[...overview, ...details]]);
  }
  let best: PdfBlock[][] = candidates[0] ?? [];
  let bestScore = -1;
  let bestPages = Infinity;
  for (const groups of candidates) {
    const fills = groups.flatMap((g) => simulatePages(content, g));
    const score = fills.length <= 1 ? MIN_FILL : Math.min(MIN_FILL, ...fills);
    if (score > bestScore || (score === bestScore && fills.length < bestPages)) {
      best = groups;
      bestScore = score;
      bestPages = fills.length;
    }
  }
  return best;
}
