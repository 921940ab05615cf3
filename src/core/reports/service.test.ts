import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createCore } from '../core';
import { insightsSummary } from '../insights';
import { ReportContentSchema, ReportSchema } from '../../shared/api/reports';
import { ReportsService } from './service';
import { seedDiagnostic } from '../../test-support/reports-fixtures';
import { pdfText } from '../../test-support/pdf';
import { harness, manualClock, type Harness } from '../../test-support/reports-harness';

const RANGE = { dateFrom: '2026-01-01', dateTo: '2026-03-31' };

let h: Harness | undefined;
let services: ReportsService[] = [];

function service(x: Harness, opts: ConstructorParameters<typeof ReportsService>[1] = {}): ReportsService {
  const s = new ReportsService(x.core, opts);
  s.setBaseUrl('http://127.0.0.1:4321');
  services.push(s);
  return s;
}

afterEach(async () => {
  for (const s of services) await s.stop();
  services = [];
  h?.cleanup();
  h = undefined;
});

function query(url: string): { expires: string; signature: string } {
  const u = new URL(url);
  return { expires: u.searchParams.get('expires') ?? '', signature: u.searchParams.get('signature') ?? '' };
}

describe('ReportsService lifecycle', () => {
  it('generates a JSON report whose numbers equal the insights summary, and downloads it', async () => {
    h = harness();
    const s = service(h);
    const created = await s.create(h.ctx, {
      accountId: h.fixture.accountId,
      title: 'Q1 — Отчёт',
      format: 'json',
      ...RANGE,
    });
    expect(created.status).toBe('generating');
    expect((await s.get(h.ctx, created.id))?.status).toBe('generating');
    const report = await s.waitFor(h.ctx, created.id);
    expect(report.status).toBe('completed');
    ReportSchema.parse(report);
    expect(report.downloadUrl).toMatch(
      /^http:\/\/127\.0\.0\.1:4321\/v1\/reports\/rpt_\w+\/download\?expires=\d+&signature=[0-9a-f]{64}$/,
    );
    expect(Date.parse(report.expiresAt ?? '') - Date.parse(report.completedAt ?? '')).toBe(7 * 86_400_000);

    const file = await s.download(h.ctx, created.id, query(report.downloadUrl ?? ''));
    expect(file.contentType).toBe('application/json');
    expect(file.contentDisposition).toContain('attachment; filename="Q1_2026-01-01_2026-03-31.json"');
    expect(file.contentDisposition).toContain(
      "filename*=UTF-8''Q1%20%E2%80%94%20%D0%9E%D1%82%D1%87%D1%91%D1%82",
    );
    const content = ReportContentSchema.parse(JSON.parse(file.body.toString('utf8')));
    const insights = await insightsSummary(h.core.sql, {
      accountIds: [h.fixture.accountId],
      campaignIds: h.fixture.campaignIds,
      from: RANGE.dateFrom,
      to: RANGE.dateTo,
      currency: 'EUR',
    });
    expect(content.totals.spend).toBe(insights.totals.spend);
    expect(report.summary).toEqual({
      totalSpend: insights.totals.spend,
      totalConversions: insights.totals.conversions,
      avgCpa: insights.totals.cpa,
      avgRoas: insights.totals.roas,
      overallRiskLevel: 'LOW',
    });
    expect(content.summary.changes.spendChange).toBe(insights.trends.spendChange);
    expect(content.daily).toHaveLength(90);
    expect(content.branding.companyName).toBe('AdLens');
  });

  it('renders a PDF in the worker thread with the title, account, totals and non-Latin names', async () => {
    h = harness();
    seedDiagnostic(
      h.core.db,
      {
        workspaceId: h.fixture.workspaceId,
        accountId: h.fixture.accountId,
        campaignId: h.fixture.campaignIds[0] ?? '',
      },
      { riskLevel: 'HIGH', from: '2026-03-01', to: '2026-03-28', completedAt: '2026-03-29T10:00:00.000Z' },
    );
    const s = service(h);
    const created = await s.create(h.ctx, {
      accountId: h.fixture.accountId,
      title: 'Quarterly review',
      ...RANGE,
    });
    const report = await s.waitFor(h.ctx, created.id);
    expect(report.status).toBe('completed');
    expect(report.format).toBe('pdf');
    expect(report.summary?.overallRiskLevel).toBe('HIGH');
    const file = await s.download(h.ctx, created.id, query(report.downloadUrl ?? ''));
    expect(file.contentType).toBe('application/pdf');
    expect(file.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(file.body);
    expect(text).toContain('Quarterly review');
    expect(text).toContain('Boulangerie Électrique — Москва');
    expect(text).toContain('Кампания Осень');
    expect(text).toContain('Été Promo Société');
    const spend = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(
      report.summary?.totalSpend ?? -1,
    );
    expect(text).toContain(spend);
  });

  it('keeps files and links across a restart, and re-generates reports a dead process left generating', async () => {
    h = harness();
    const s = service(h);
    const done = await s.create(h.ctx, {
      accountId: h.fixture.accountId,
      title: 'Before restart',
      format: 'markdown',
      ...RANGE,
    });
    const before = await s.waitFor(h.ctx, done.id);
    // A report the "dead" process never finished: stop before its queue ran.
    await s.stop();
    h.core.db.prepare(`UPDATE reports SET status = 'generating', summary = NULL WHERE id = ?`).run(done.id);
    h.core.close();

    const core = createCore({ dataDir: h.dir, clock: manualClock('2026-04-02T09:00:00.000Z') });
    h = { ...h, core };
    const again = service(h);
    await again.resume();
    const after = await again.waitFor(h.ctx, done.id);
    expect(after.status).toBe('completed');
    expect(after.summary).toEqual(before.summary);
    const file = await again.download(h.ctx, done.id, query(after.downloadUrl ?? ''));
    expect(file.contentType).toBe('text/markdown; charset=utf-8');
    expect(file.body.toString('utf8')).toContain('# Before restart');
    expect(existsSync(join(h.dir, 'reports', `${done.id}.md`))).toBe(true);
  });

  it('serves a completed report after a restart with the link issued before it', async () => {
    h = harness();
    const s = service(h);
    const created = await s.create(h.ctx, {
      accountId: h.fixture.accountId,
      title: 'Survivor',
      format: 'json',
      ...RANGE,
    });
    const report = await s.waitFor(h.ctx, created.id);
    const before = (await s.download(h.ctx, created.id, query(report.downloadUrl ?? ''))).body;
    await s.stop();
    h.core.close();
    const core = createCore({ dataDir: h.dir, clock: manualClock('2026-04-05T09:00:00.000Z') });
    h = { ...h, core };
    const again = service(h);
    await again.resume();
    expect((await again.get(h.ctx, created.id))?.downloadUrl).toBe(report.downloadUrl);
    expect(
      (await again.download(h.ctx, created.id, query(report.downloadUrl ?? ''))).body.equals(before),
    ).toBe(true);
  });

  it('marks a report failed with a reason when its account is gone', async () => {
    h = harness();
    const s = service(h);
    const created = await s.create(h.ctx, {
      accountId: h.fixture.accountId,
      title: 'Doomed',
      format: 'markdown',
      ...RANGE,
    });
    // The campaign list no longer matches the account: generation must fail, not hang.
    h.core.db
      .prepare(`UPDATE reports SET campaign_ids = ? WHERE id = ?`)
      .run(JSON.stringify(['camp_Missing0000000000']), created.id);
    const report = await s.waitFor(h.ctx, created.id);
    expect(report.status).toBe('failed');
    expect(report.error?.type).toBe('not_found');
    expect(report.downloadUrl).toBeNull();
  });
});
