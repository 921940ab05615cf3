// Reports benchmark: a 20-campaign, 90-day report (every campaign with a diagnostic) generated end to
// end through ReportsService (create → completed file on disk). PDF cold (worker start + fonts) and
// warm (median of 5); Markdown (median of 10). Then /v1 responsiveness: p99 of sequential
// GET /v1/reports requests while PDFs render back to back, against the p99 of the same requests with
// nothing rendering: 4 rounds of 1.5 s idle then 1.5 s busy, in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore } from '../src/core/core';
import { createApiServer } from '../src/core/api/server';
import { createApp } from '../src/core/app';
import { createApiKey } from '../src/core/identity/api-keys';
import type { RequestContext } from '../src/core/identity/access';
import { seedDiagnostic, seedReportFixture } from '../src/test-support/reports-fixtures';
import { figure, percentile, type BenchFigure, type BenchSuite } from './harness';

const RANGE = { dateFrom: '2026-01-01', dateTo: '2026-03-31' };
const WINDOW_MS = Number(process.env.REPORTS_BENCH_WINDOW_MS ?? 1500);
const ROUNDS = 4;

function median(values: number[]): number {
  return percentile(values, 50);
}

const suite: BenchSuite = {
  name: 'reports',
  async run(): Promise<BenchFigure[]> {
    const dir = mkdtempSync(join(tmpdir(), 'adlens-bench-reports-'));
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
    const ctx: RequestContext = {
      workspaceId: f.workspaceId,
      plan: 'agency',
      userId: f.userId,
      keyId: null,
      mode: 'all',
    };
    const app = createApp(core);
    const { reports, diagnostics } = app;
    const input = { accountId: f.accountId, title: 'Bench — Отчёт', campaignIds: f.campaignIds, ...RANGE };

    async function generate(format: 'pdf' | 'markdown'): Promise<number> {
      const started = performance.now();
      const created = await reports.create(ctx, { ...input, format });
      const report = await reports.waitFor(ctx, created.id);
      if (report.status !== 'completed') throw new Error(`report failed: ${report.error?.message ?? ''}`);
      return performance.now() - started;
    }

    const figures: BenchFigure[] = [];
    try {
      const cold = await generate('pdf');
      const warm: number[] = [];
      for (let i = 0; i < 5; i += 1) warm.push(await generate('pdf'));
      const markdown: number[] = [];
      for (let i = 0; i < 10; i += 1) markdown.push(await generate('markdown'));
      figures.push(
        figure({
          suite: 'reports',
          name: 'PDF 20 campaigns × 90 days, cold (worker start, fonts)',
          value: cold,
          unit: 'ms',
          note: 'specified service: 10-20 s',
        }),
        figure({
          suite: 'reports',
          name: 'PDF 20 campaigns × 90 days, warm worker (median of 5)',
          value: median(warm),
          unit: 'ms',
          target: { op: '<=', value: 1500, of: 'value' },
          note: `max ${Math.round(Math.max(...warm))} ms`,
        }),
        figure({
          suite: 'reports',
          name: 'Markdown 20 campaigns × 90 days (median of 10)',
          value: median(markdown),
          unit: 'ms',
          target: { op: '<=', value: 100, of: 'value' },
        }),
      );

      // /v1 responsiveness while PDFs render in the worker.
      const api = await createApiServer(app, { port: 0 });
      reports.setBaseUrl(api.url);
      const key = (
        await createApiKey(core.sql, core.clock, {
          workspaceId: f.workspaceId,
          mode: 'test',
          limitOverrides: { reads: 1_000_000 },
        })
      ).key;
      const url = `${api.url}/v1/reports?page_size=5`;
      const request = async (): Promise<number> => {
        const started = performance.now();
        const res = await fetch(url, { headers: { 'x-api-key': key } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`GET /v1/reports answered ${res.status}`);
        return performance.now() - started;
      };
      for (let i = 0; i < 30; i += 1) await request(); // warm-up
      // Idle and busy windows alternate a few times, so that bursts from the rest of the machine fall on
      // both sides of the comparison alike. A busy window samples only while PDFs render back to back.
      const sampleFor = async (ms: number, into: number[]): Promise<void> => {
        const end = performance.now() + ms;
        while (performance.now() < end) into.push(await request());
      };
      const idle: number[] = [];
      const busy: number[] = [];
      let rendered = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        await sampleFor(WINDOW_MS, idle);
        let rendering = true;
        const renderLoop = (async () => {
          while (rendering) {
            await generate('pdf');
            rendered += 1;
          }
        })();
        await sampleFor(WINDOW_MS, busy);
        rendering = false;
        await renderLoop;
      }
      await api.close();

      const idleP99 = percentile(idle, 99);
      figures.push(
        figure({
          suite: 'reports',
          name: 'GET /v1/reports p99 while PDFs render',
          value: percentile(busy, 99),
          unit: 'ms',
          baseline: { name: 'idle p99', value: idleP99 },
          target: { op: '<=', value: 2, of: 'ratio' },
          note: `${idle.length} idle / ${busy.length} busy sequential requests; ${rendered} PDFs rendered meanwhile`,
        }),
      );
    } finally {
      await reports.stop();
      await diagnostics.stop();
      core.close();
      rmSync(dir, { recursive: true, force: true });
    }
    return figures;
  },
};

export default suite;
