// Client-ready reports: branding per client on the Agency plan, commentary, sections, goals against
// actuals, a page plan without near-empty pages (read from the real PDF), and delivery to a folder and
// through a real SMTP server, retried after a failure.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../app';
import { ReportContentSchema } from '../../shared/api/reports';
import { smtpReceiver } from '../../test-support/alert-receivers';
import { pdfPageFill, pdfPages, pdfText } from '../../test-support/pdf';
import { harness, manualClock, pngLogo, type Harness } from '../../test-support/reports-harness';
import { renderMarkdown } from './markdown';

const RANGE = { dateStart: '2026-01-01', dateEnd: '2026-03-31' };
const COMMENTARY =
  'A **strong** quarter for the client.\n\n- Cost per result *down* in March\n- Scale the winners';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

function world(opts: Parameters<typeof harness>[0] = {}) {
  const clock = manualClock('2026-04-01T09:00:00.000Z');
  const h: Harness = harness({ ...opts, clock });
  const app = createApp(h.core);
  app.reports.setBaseUrl('http://127.0.0.1:1');
  cleanups.push(async () => {
    await app.reports.stop();
    h.cleanup();
  });
  return { h, app, clock, use: app.use.reports };
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'adlens-delivery-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('branding per client', () => {
  it('uses the client’s branding, else the workspace default, and an explicit white-label first', async () => {
    const { h, app, use } = world({ campaigns: 3 });
    const logo = pngLogo(120, 40, [200, 30, 60]);
    const view = await use.setBranding(h.ctx, {
      accountId: h.fixture.accountId,
      branding: {
        companyName: 'Client Co Agency',
        logo,
        primaryColor: '#c81e3c',
        footerText: 'For Client Co',
      },
    });
    expect(view.branding).toMatchObject({ companyName: 'Client Co Agency', primaryColor: '#C81E3C' });
    const content = await use.preview(h.ctx, { accountId: h.fixture.accountId, title: 'Q1', ...RANGE });
    expect(content.branding).toMatchObject({ whiteLabel: true, companyName: 'Client Co Agency', logo });

    // Another account of the workspace falls back to the workspace default.
    await app.use.settings.update(h.ctx, 'web', { whiteLabelDefaults: { companyName: 'Default Agency' } });
    await use.setBranding(h.ctx, { accountId: h.fixture.accountId, branding: null });
    const fallback = await use.preview(h.ctx, { accountId: h.fixture.accountId, title: 'Q1', ...RANGE });
    expect(fallback.branding.companyName).toBe('Default Agency');
    const explicit = await use.preview(h.ctx, {
      accountId: h.fixture.accountId,
      title: 'Q1',
      whiteLabel: { companyName: 'Given Agency' },
      ...RANGE,
    });
    expect(explicit.branding.companyName).toBe('Given Agency');
  });

  it('is refused outside the Agency plan, and a logo must be a real PNG or JPEG of at most 256 KB', async () => {
    const trial = world({ campaigns: 2, plan: 'trial' });
    await expect(
      trial.use.setBranding(trial.h.ctx, {
        accountId: trial.h.fixture.accountId,
        branding: { companyName: 'X' },
      }),
    ).rejects.toMatchObject({ type: 'white_label_not_available' });
    const content = await trial.use.preview(trial.h.ctx, {
      accountId: trial.h.fixture.accountId,
      title: 'Q1',
      ...RANGE,
    });
    expect(content.branding.whiteLabel).toBe(false);

    const { h, use } = world({ campaigns: 2 });
    const gif = `data:image/png;base64,${Buffer.from('GIF89a-not-a-png').toString('base64')}`;
    await expect(
      use.setBranding(h.ctx, { accountId: h.fixture.accountId, branding: { companyName: 'X', logo: gif } }),
    ).rejects.toMatchObject({ type: 'invalid_request' });
    const huge = `data:image/png;base64,${Buffer.alloc(300 * 1024, 1).toString('base64')}`;
    await expect(
      use.setBranding(h.ctx, { accountId: h.fixture.accountId, branding: { companyName: 'X', logo: huge } }),
    ).rejects.toMatchObject({ type: 'invalid_request' });
  });
});

describe('the report a client reads', () => {
  it('carries commentary, key figures with deltas, goals and the chosen sections in every format', async () => {
    const { h, app, use } = world({ campaigns: 6 });
    await app.use.goals.set(h.ctx, { accountId: h.fixture.accountId, kind: 'CPA', target: 17 });
    await app.use.goals.set(h.ctx, {
      accountId: h.fixture.accountId,
      campaignId: h.fixture.campaignIds[0],
      kind: 'ROAS',
      target: 50,
    });
    const content = ReportContentSchema.parse(
      await use.preview(h.ctx, {
        accountId: h.fixture.accountId,
        title: 'Q1',
        commentary: COMMENTARY,
        sections: { diagnostics: false },
        ...RANGE,
      }),
    );
    expect(content.sections).toEqual(['commentary', 'kpis', 'summary', 'goals', 'trend', 'campaigns']);
    expect(content.commentary).toBe(COMMENTARY);
    const spend = content.kpis.find((k) => k.metric === 'spend');
    expect(spend?.value).toBe(content.summary.totalSpend);
    expect(spend?.previous).toBeGreaterThan(0);
    expect(content.kpis.some((k) => k.metric === 'costPerResult' && k.change !== null)).toBe(true);
    expect(content.goals[0]).toMatchObject({ campaignId: null, kind: 'CPA', target: 17, source: 'account' });
    const own = content.goals.find((g) => g.campaignId === h.fixture.campaignIds[0]);
    expect(own).toMatchObject({ kind: 'ROAS', target: 50, met: false, source: 'campaign' });
    expect(content.goals.filter((g) => g.source === 'account')).toHaveLength(content.campaigns.length);

    const created = await use.create(h.ctx, {
      accountId: h.fixture.accountId,
      title: 'Q1',
      commentary: COMMENTARY,
      sections: { diagnostics: false },
      ...RANGE,
    });
    await app.reports.waitFor(h.ctx, created.id);
    const pdf = (await use.file(h.ctx, created.id)).body;
    const text = pdfText(pdf);
    for (const phrase of [
      'Analyst commentary',
      'A strong quarter for the client.',
      'Cost per result down in March',
      'Key figures',
      'Goals against actuals',
      'Cost per result ≤ €17.00',
      'ROAS ≥ 50.00x',
      'Missed',
    ])
      expect(text).toContain(phrase);
    expect(text).not.toContain('Diagnostics');
    const markdown = renderMarkdown(content);
    expect(markdown).toContain('## Analyst commentary');
    expect(markdown).toContain('A **strong** quarter for the client.');
    expect(markdown).toContain('- Cost per result _down_ in March');
    expect(markdown).toContain('## Goals against actuals');
    expect(markdown).not.toContain('## Diagnostics');
  });

  it('leaves no page of a 20-campaign report nearly empty (measured on the PDF’s pages)', async () => {
    for (const campaigns of [1, 7, 20]) {
      const { h, app, use } = world({ campaigns });
      const created = await use.create(h.ctx, {
        accountId: h.fixture.accountId,
        title: 'Quarterly',
        commentary: COMMENTARY,
        ...RANGE,
      });
      await app.reports.waitFor(h.ctx, created.id);
      const pdf = (await use.file(h.ctx, created.id)).body;
      const pages = pdfPages(pdf);
      const fills = Array.from({ length: pages - 1 }, (_, i) => pdfPageFill(pdf, i + 2));
      // The case was a page holding six table rows (about 15% of it).
      expect(
        Math.min(...fills),
        `${campaigns} campaigns: ${fills.map((f) => f.toFixed(2)).join(' ')}`,
      ).toBeGreaterThan(0.35);
      // Every campaign row is printed once.
      const text = pdfText(pdf);
      for (const id of h.fixture.campaignIds) {
        const name = h.core.db.prepare(`SELECT name FROM campaigns WHERE id = ?`).pluck().get(id) as string;
        expect(text).toContain(name.slice(0, 18));
      }
    }
  });
});

describe('delivery', () => {
  it('puts the file in a folder and e-mails it through the agency’s SMTP server', async () => {
    const { h, app, use } = world({ campaigns: 3 });
    const smtp = await smtpReceiver(cleanups);
    await app.use.alerts.setSmtp(h.ctx, {
      host: '127.0.0.1',
      port: smtp.port,
      security: 'none',
      from: 'reports@agency.test',
    });
    const folder = join(tempDir(), 'Client Co', 'reports');
    const created = await use.create(h.ctx, {
      accountId: h.fixture.accountId,
      title: 'Q1: Client/Co',
      delivery: { folder, emails: ['client@client.test', 'boss@client.test'] },
      ...RANGE,
    });
    await app.reports.waitFor(h.ctx, created.id);
    await app.reports.whenIdle();
    const report = await use.get(h.ctx, created.id);
    expect(report.deliveries?.map((d) => [d.channel, d.target, d.status])).toEqual([
      ['email', 'boss@client.test', 'delivered'],
      ['email', 'client@client.test', 'delivered'],
      ['folder', folder, 'delivered'],
    ]);
    const written = readdirSync(folder);
    expect(written).toEqual(['Q1 Client Co 2026-01-01 to 2026-03-31.pdf']);
    const file = await use.file(h.ctx, created.id);
    expect(readFileSync(join(folder, written[0]!)).equals(file.body)).toBe(true);
    expect(smtp.mails.map((m) => m.to[0]).sort()).toEqual(['boss@client.test', 'client@client.test']);
    const mail = smtp.mails[0]!.data;
    expect(mail).toMatch(/Content-Type: application\/pdf/);
    expect(mail).toContain('From: reports@agency.test');
    // The attachment is the report's own bytes.
    const base64 = /Content-Transfer-Encoding: base64\r?\n(?:.*\r?\n)*?\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(
      mail.slice(mail.indexOf('application/pdf')),
    )?.[1];
    expect(Buffer.from((base64 ?? '').replace(/\s/g, ''), 'base64').equals(file.body)).toBe(true);
  });

  it('shows a failed e-mail on the report and retries it with backoff', async () => {
    const { h, app, use, clock } = world({ campaigns: 2 });
    await app.use.alerts.setSmtp(h.ctx, {
      host: '127.0.0.1',
      port: await closedPort(),
      security: 'none',
      from: 'reports@agency.test',
    });
    const created = await use.create(h.ctx, {
      accountId: h.fixture.accountId,
      title: 'Q1',
      format: 'markdown',
      delivery: { emails: ['client@client.test'] },
      ...RANGE,
    });
    await app.reports.waitFor(h.ctx, created.id);
    await app.reports.whenIdle();
    let delivery = (await use.get(h.ctx, created.id)).deliveries?.[0];
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
    expect(delivery?.lastError).toMatch(/ECONNREFUSED/);

    const smtp = await smtpReceiver(cleanups);
    await app.use.alerts.setSmtp(h.ctx, {
      host: '127.0.0.1',
      port: smtp.port,
      security: 'none',
      from: 'reports@agency.test',
    });
    await app.reports.deliverDue(); // not due yet: the first retry waits a minute
    expect(smtp.mails).toHaveLength(0);
    clock.advanceDays(1 / 24);
    await app.reports.deliverDue();
    delivery = (await use.get(h.ctx, created.id)).deliveries?.[0];
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, lastError: null });
    expect(smtp.mails).toHaveLength(1);
  });

  it('delivers scheduled runs in their locale to the folder', async () => {
    const { h, app, use, clock } = world({ campaigns: 3 });
    const folder = tempDir();
    const schedule = await use.schedule(h.ctx, {
      accountId: h.fixture.accountId,
      title: '週次レポート',
      cadence: 'weekly',
      format: 'json',
      locale: 'ja',
      commentary: '今週は**好調**です。',
      sections: { trend: false },
      delivery: { folder },
    });
    expect(schedule).toMatchObject({ locale: 'ja', sections: { trend: false }, delivery: { folder } });
    clock.set(schedule.nextRunAt);
    expect(await app.reports.runDue()).toBe(1);
    await app.reports.whenIdle();
    const files = readdirSync(folder);
    expect(files).toHaveLength(1);
    const content = ReportContentSchema.parse(JSON.parse(readFileSync(join(folder, files[0]!), 'utf8')));
    expect(content).toMatchObject({
      locale: 'ja',
      title: '週次レポート',
      commentary: '今週は**好調**です。',
    });
    expect(content.sections).not.toContain('trend');
    expect(existsSync(join(folder, files[0]!))).toBe(true);
  });
});
