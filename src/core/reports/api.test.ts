// End to end through the /v1 server: POST /v1/reports, GET /v1/reports until completed, download the
// signed link with the key, and compare with GET /v1/insights/summary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticsService } from '../diagnostics/service';
import { createApp } from '../app';
import { createApiServer, type ApiServer } from '../api/server';
import { createApiKey } from '../identity/api-keys';
import { ReportSchema, type Report } from '../../shared/api/reports';
import { ReportsService } from './service';
import { pdfText } from '../../test-support/pdf';
import { harness, manualClock, type Harness } from '../../test-support/reports-harness';

const clock = manualClock('2026-04-01T09:00:00.000Z');
let h: Harness;
let api: ApiServer;
let reports: ReportsService;
let diagnostics: DiagnosticsService;
let key: string;
let otherKey: string;

beforeAll(async () => {
  h = harness({ campaigns: 21, clock });
  const app = createApp(h.core);
  ({ reports, diagnostics } = app);
  api = await createApiServer(app, { port: 0 });
  const limits = { reads: 1000, writes: 1000, reports: 1000 };
  key = (
    await createApiKey(h.core.sql, clock, {
      workspaceId: h.fixture.workspaceId,
      mode: 'test',
      limitOverrides: limits,
    })
  ).key;
  otherKey = (
    await createApiKey(h.core.sql, clock, {
      workspaceId: h.fixture.other.workspaceId,
      mode: 'test',
      limitOverrides: limits,
    })
  ).key;
});

afterAll(async () => {
  await api.close();
  await reports.stop();
  await diagnostics.stop();
  h.cleanup();
});

async function call(path: string, opts: { body?: unknown; apiKey?: string } = {}) {
  const res = await fetch(path.startsWith('http') ? path : `${api.url}${path}`, {
    method: opts.body === undefined ? 'GET' : 'POST',
    headers: {
      'x-api-key': opts.apiKey ?? key,
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    json = undefined;
  }
  return {
    status: res.status,
    headers: res.headers,
    bytes,
    json: json as { data?: unknown; error?: { type: string } },
  };
}

const body = (extra: Record<string, unknown> = {}) => ({
  account_id: h.fixture.platformAccountId,
  title: 'Q1 — Отчёт',
  date_start: '2026-01-01',
  date_end: '2026-03-31',
  campaign_ids: h.fixture.campaignIds.slice(0, 6),
  ...extra,
});

async function createAndWait(extra: Record<string, unknown>): Promise<Report> {
  const created = await call('/v1/reports', { body: body(extra) });
  expect(created.status).toBe(202);
  const id = (created.json.data as { id: string; status: string }).id;
  expect((created.json.data as { status: string }).status).toBe('generating');
  await reports.whenIdle();
  const listed = await call(`/v1/reports?status=completed&format=${String(extra.format ?? 'pdf')}`);
  const report = (listed.json.data as Report[]).find((r) => r.id === id);
  expect(report?.status).toBe('completed');
  return ReportSchema.parse(report);
}

describe('reports through /v1', () => {
  it('PDF: created, listed as completed, downloaded with the key; totals match /v1/insights/summary', async () => {
    const report = await createAndWait({ format: 'pdf' });
    const file = await call(report.downloadUrl ?? '');
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="Q1_2026-01-01_2026-03-31.pdf"; filename*=UTF-8''${encodeURIComponent('Q1 — Отчёт 2026-01-01 to 2026-03-31.pdf')}`,
    );
    expect(file.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const ids = h.fixture.campaignIds.slice(0, 6).join(',');
    const insights = await call(
      `/v1/insights/summary?date_start=2026-01-01&date_end=2026-03-31&campaign_ids=${ids}`,
    );
    const totals = (
      insights.json.data as { totals: { spend: number; conversions: number; cpa: number; roas: number } }
    ).totals;
    expect(report.summary).toMatchObject({
      totalSpend: totals.spend,
      totalConversions: totals.conversions,
      avgCpa: totals.cpa,
      avgRoas: totals.roas,
    });
    const text = pdfText(file.bytes);
    expect(text).toContain('Q1 — Отчёт');
    expect(text).toContain('Boulangerie Électrique — Москва');
    expect(text).toContain(
      new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(totals.spend),
    );
  });

  it('Markdown and JSON: correct content types and bodies; filters by campaignId', async () => {
    const md = await createAndWait({ format: 'markdown' });
    const mdFile = await call(md.downloadUrl ?? '');
    expect(mdFile.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(mdFile.bytes.toString('utf8')).toMatch(/^# Q1 — Отчёт/m);
    const json = await createAndWait({
      format: 'json',
      whiteLabel: { companyName: 'Agence Lumière', primaryColor: '#0F766E' },
    });
    const jsonFile = await call(json.downloadUrl ?? '');
    expect(jsonFile.headers.get('content-type')).toMatch(/^application\/json/);
    const content = JSON.parse(jsonFile.bytes.toString('utf8')) as {
      branding: { companyName: string };
      summary: { totalSpend: number };
    };
    expect(content.branding.companyName).toBe('Agence Lumière');
    expect(content.summary.totalSpend).toBe(json.summary?.totalSpend);
    const byCampaign = await call(`/v1/reports?campaignId=${h.fixture.campaignIds[0] ?? ''}&format=markdown`);
    expect((byCampaign.json.data as Report[]).map((r) => r.id)).toEqual([md.id]);
  });

  it('takes a locale (an addition): stored with the report, its PDF in Japanese; others refused', async () => {
    const report = await createAndWait({ format: 'pdf', locale: 'ja' });
    const text = pdfText((await call(report.downloadUrl ?? '')).bytes);
    expect(text).toContain('パフォーマンスレポート');
    expect(text).toContain('2026年1月1日 – 2026年3月31日');
    const json = await createAndWait({ format: 'json', locale: 'ja' });
    const content = JSON.parse((await call(json.downloadUrl ?? '')).bytes.toString('utf8')) as {
      locale: string;
    };
    expect(content.locale).toBe('ja');
    const english = await createAndWait({ format: 'json' });
    expect(JSON.parse((await call(english.downloadUrl ?? '')).bytes.toString('utf8'))).toMatchObject({
      locale: 'en',
    });
    const unknown = await call('/v1/reports', { body: body({ locale: 'fr' }) });
    expect([unknown.status, unknown.json.error?.type]).toEqual([400, 'invalid_request']);
  });

  it('answers every documented error', async () => {
    expect(
      (await call('/v1/reports', { body: body({ campaign_ids: h.fixture.campaignIds }) })).json.error?.type,
    ).toBe('too_many_campaigns');
    const notFound = await call('/v1/reports', {
      body: body({ campaign_ids: [h.fixture.other.campaignId] }),
    });
    expect([notFound.status, notFound.json.error?.type]).toEqual([404, 'not_found']);
    const badLogo = await call('/v1/reports', {
      body: body({ whiteLabel: { companyName: 'A', logo: 'data:image/png;base64,AAAA' } }),
    });
    expect([badLogo.status, badLogo.json.error?.type]).toEqual([400, 'invalid_request']);

    const created = await call('/v1/reports', { body: body({ format: 'markdown' }) });
    const id = (created.json.data as { id: string }).id;
    const early = await call(`/v1/reports/${id}/download?expires=9999999999&signature=${'0'.repeat(64)}`);
    expect([early.status, early.json.error?.type]).toEqual([404, 'not_found']);
    await reports.whenIdle();
    const report = (await call(`/v1/reports/${id}`)).json.data as Report;
    const url = new URL(report.downloadUrl ?? '');
    const badSignature = new URL(url);
    badSignature.searchParams.set('signature', 'f'.repeat(64));
    expect((await call(badSignature.href)).status).toBe(404);
    const foreign = await call(url.href, { apiKey: otherKey });
    expect([foreign.status, foreign.json.error?.type]).toEqual([404, 'not_found']);
    expect((await call(url.href)).status).toBe(200);
    clock.advanceDays(8);
    const expired = await call(url.href);
    expect([expired.status, expired.json.error?.type]).toEqual([404, 'not_found']);

    h.core.db.prepare(`UPDATE workspaces SET plan = 'trial' WHERE id = ?`).run(h.fixture.workspaceId);
    const trial = await call('/v1/reports', { body: body({ whiteLabel: { companyName: 'Acme' } }) });
    expect([trial.status, trial.json.error?.type]).toEqual([403, 'white_label_not_available']);
  });
});
