// Where a warm PDF render spends its time, on the bench's report: content from the store, then
// renderToBuffer (react-pdf layout and pagination, PDF writing with font subsets). Not a bench suite;
// run by hand when the PDF figure moves, with --cpu-prof to see inside the render:
//   NODE_ENV=production RUNS=6 OUT=/tmp/report.pdf node --import tsx bench/tools/pdf-stages.tsx
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore } from '../../src/core/core';
import { buildReportContent } from '../../src/core/reports/content';
import { seedDiagnostic, seedReportFixture } from '../../src/test-support/reports-fixtures';

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'adlens-pdf-stages-'));
  const core = createCore({ dataDir: dir });
  const f = seedReportFixture(core.db, { campaigns: 20, today: '2026-03-31', days: 200 });
  for (const [i, campaignId] of f.campaignIds.entries()) {
    seedDiagnostic(
      core.db,
      { workspaceId: f.workspaceId, accountId: f.accountId, campaignId },
      {
        riskLevel: (['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const)[i % 4] ?? 'LOW',
        from: '2026-03-01',
        to: '2026-03-28',
        completedAt: '2026-03-29T08:00:00.000Z',
      },
    );
  }
  const { renderToBuffer } = await import('@react-pdf/renderer');
  const { ReportDocument } = await import('../../src/core/reports/pdf/document');
  const { registerFonts } = await import('../../src/core/reports/pdf/fonts');
  registerFonts();

  const input = {
    reportId: 'rep_bench',
    workspaceId: f.workspaceId,
    accountId: f.accountId,
    campaignIds: f.campaignIds,
    title: 'Bench — Отчёт',
    dateFrom: '2026-01-01',
    dateTo: '2026-03-31',
    userId: f.userId,
    generatedAt: new Date('2026-04-01T00:00:00Z'),
  };
  const runs = Number(process.env.RUNS ?? 6);
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    const content = await buildReportContent(core.sql, input);
    const t1 = performance.now();
    const buffer = await renderToBuffer(<ReportDocument content={content} />);
    const t2 = performance.now();
    if (i === runs - 1) writeFileSync(process.env.OUT ?? '/tmp/pdf-stages.pdf', buffer);
    console.log(
      `run ${i}: content ${(t1 - t0).toFixed(0)} ms, render ${(t2 - t1).toFixed(0)} ms, ${buffer.length} bytes`,
    );
  }
  core.close();
  rmSync(dir, { recursive: true, force: true });
}

void main();
