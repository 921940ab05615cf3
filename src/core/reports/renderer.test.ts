import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger } from '../core';
import { ReportRenderer } from './renderer';
import type { GenerateJob } from './render';
import { harness, type Harness } from '../../test-support/reports-harness';

let h: Harness | undefined;
let renderer: ReportRenderer | undefined;
afterEach(async () => {
  await renderer?.close();
  h?.cleanup();
});

function job(x: Harness, format: GenerateJob['format'], name: string): GenerateJob {
  return {
    format,
    relativePath: join('reports', name),
    input: {
      reportId: 'rpt_Test000000000000',
      workspaceId: x.fixture.workspaceId,
      accountId: x.fixture.accountId,
      campaignIds: x.fixture.campaignIds,
      title: 'Renderer check',
      dateFrom: '2026-03-01',
      dateTo: '2026-03-31',
      userId: null,
      generatedAt: '2026-04-01T00:00:00.000Z',
    },
  };
}

describe('ReportRenderer', () => {
  it('renders PDFs in one long-lived worker thread and Markdown inline, writing whole files only', async () => {
    h = harness();
    renderer = new ReportRenderer(h.core.sql, h.core.reportFiles, { dataDir: h.dir, logger: silentLogger });
    const first = await renderer.generate(job(h, 'pdf', 'a.pdf'));
    const second = await renderer.generate(job(h, 'pdf', 'b.pdf'));
    expect(first.threadId).toBeGreaterThan(0);
    expect(second.threadId).toBe(first.threadId);
    const markdown = await renderer.generate(job(h, 'markdown', 'c.md'));
    expect(markdown.threadId).toBe(0);
    expect(
      readFileSync(join(h.dir, 'reports', 'a.pdf'))
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
    expect(first.bytes).toBe(readFileSync(join(h.dir, 'reports', 'a.pdf')).length);
    expect(readdirSync(join(h.dir, 'reports')).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('fails a job with the reason from the worker, and keeps serving the next one', async () => {
    h = harness();
    renderer = new ReportRenderer(h.core.sql, h.core.reportFiles, { dataDir: h.dir, logger: silentLogger });
    const bad = job(h, 'pdf', 'bad.pdf');
    bad.input.accountId = 'act_Unknown000000000';
    await expect(renderer.generate(bad)).rejects.toMatchObject({ type: 'not_found' });
    expect(existsSync(join(h.dir, bad.relativePath))).toBe(false);
    const good = await renderer.generate(job(h, 'pdf', 'good.pdf'));
    expect(good.summary.totalSpend).toBeGreaterThan(0);
  });

  it('fails a job that takes too long, ending that worker', async () => {
    h = harness();
    renderer = new ReportRenderer(h.core.sql, h.core.reportFiles, {
      dataDir: h.dir,
      logger: silentLogger,
      jobTimeoutMs: 1,
    });
    await expect(renderer.generate(job(h, 'pdf', 'slow.pdf'))).rejects.toThrow(/longer than/);
    expect(existsSync(join(h.dir, 'reports', 'slow.pdf'))).toBe(false);
  });

  it('renders inline when asked not to use a worker', async () => {
    h = harness();
    renderer = new ReportRenderer(h.core.sql, h.core.reportFiles, {
      dataDir: h.dir,
      logger: silentLogger,
      useWorker: false,
    });
    const result = await renderer.generate(job(h, 'pdf', 'inline.pdf'));
    expect(result.threadId).toBe(0);
  });
});
