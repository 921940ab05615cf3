// A report a client can read: the client's branding with its logo, the analyst's commentary and
// sections in the preview beside the form, then the report generated and delivered to a folder and
// by e-mail through an SMTP server this test starts — on demand and as a scheduled run.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base } from '@playwright/test';
import { acceptInvitation, expect, screenshot, startServer, USER, SCREENS_DIR } from './fixtures';
import { pngLogo } from '../src/test-support/reports-harness';
import { smtpReceiver } from './smtp-receiver';

const test = base;

// MuPDF's WebAssembly build is an ES module with top-level await: imported at run time, never
// required (Playwright loads specs as CommonJS, so src/test-support/pdf.ts cannot be imported here).
type MuPdf = typeof import('mupdf');
const loadMupdf = (): Promise<MuPdf> => import('mupdf');

async function pdfPages(pdf: Uint8Array): Promise<{ text: string; png: (page: number) => Uint8Array }> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  const texts: string[] = [];
  for (let i = 0; i < doc.countPages(); i += 1) {
    texts.push(doc.loadPage(i).toStructuredText('preserve-whitespace').asText());
  }
  return {
    text: texts.join('\f'),
    png: (page) =>
      doc
        .loadPage(page - 1)
        .toPixmap(mupdf.Matrix.scale(60 / 72, 60 / 72), mupdf.ColorSpace.DeviceRGB, false)
        .asPNG(),
  };
}

test('a client report: branding with logo, commentary and sections in the preview, delivered to a folder and by e-mail, on demand and scheduled', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const smtp = await smtpReceiver();
  const server = await startServer({
    invite: USER.email,
    args: ['--plan', 'agency', '--smtp-port', String(smtp.port)],
  });
  const work = mkdtempSync(join(tmpdir(), 'adlens-e2e-delivery-'));
  try {
    await acceptInvitation(page, server.inviteUrl as string);
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('button', { name: 'New report' }).click();
    await page.getByLabel('Title').fill('Client monthly');
    await page.getByLabel('Ad account').selectOption({ label: 'Kumo – JP Online' });

    // The client's branding, with a logo uploaded from disk.
    const logoPath = join(work, 'client-logo.png');
    writeFileSync(logoPath, Buffer.from(pngLogo(240, 80, [196, 30, 58]).split(',')[1] as string, 'base64'));
    const branding = page.getByRole('group', { name: /Client branding/ });
    await branding.getByLabel('Agency name').fill('Sakura Digital');
    await branding.getByLabel('Footer').fill('Prepared for the client by Sakura Digital');
    await branding.getByLabel(/Logo/).setInputFiles(logoPath);
    await expect(branding.getByRole('img', { name: 'Client logo' })).toBeVisible();
    await branding.getByRole('button', { name: 'Save client branding' }).click();
    await expect(branding.getByText('Saved for this client')).toBeVisible();

    // Commentary and sections, reflected by the preview.
    await page
      .getByLabel('Analyst commentary')
      .fill(
        'A **strong** month: cost per result fell.\n\n- Scale the winning ad sets\n- *Pause* the weakest creative',
      );
    const preview = page.getByRole('article', { name: 'Report preview' });
    await expect(preview.getByRole('img', { name: 'Sakura Digital logo' })).toBeVisible();
    await expect(preview.getByText('A strong month: cost per result fell.')).toBeVisible();
    await expect(preview.locator('strong', { hasText: 'strong' })).toBeVisible();
    await expect(
      preview.getByRole('listitem').filter({ hasText: 'Scale the winning ad sets' }),
    ).toBeVisible();
    await expect(preview.getByRole('heading', { name: 'Key figures' })).toBeVisible();
    await expect(preview.getByRole('heading', { name: 'Diagnostics' })).toBeVisible();
    await page.getByRole('group', { name: 'Sections' }).getByLabel('Diagnostics').uncheck();
    await expect(preview.getByRole('heading', { name: 'Diagnostics' })).toHaveCount(0);
    await screenshot(page, '30-client-report-preview');

    // Generate, delivered to a folder and by e-mail.
    const folder = join(work, 'Clients', 'Sakura');
    await page.getByLabel('Copy to folder').fill(folder);
    await page.getByLabel('E-mail to').fill('client@sakura.test');
    await page.getByRole('button', { name: 'Generate report' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Client monthly' });
    const deliveries = row.getByRole('list', { name: 'Deliveries of Client monthly' });
    await expect(deliveries).toContainText(`Folder ${folder}: delivered`, { timeout: 60_000 });
    await expect(deliveries).toContainText('E-mail client@sakura.test: delivered');
    await screenshot(page, '31-client-report-delivered');
    const [pdfName] = readdirSync(folder);
    expect(pdfName).toMatch(/^Client monthly .*\.pdf$/);
    const pdf = await pdfPages(readFileSync(join(folder, pdfName as string)));
    const text = pdf.text;
    expect(text).toContain('Sakura Digital');
    expect(text).toContain('A strong month: cost per result fell.');
    expect(text).not.toContain('Diagnostics');
    mkdirSync(SCREENS_DIR, { recursive: true });
    writeFileSync(join(SCREENS_DIR, '32-client-report-pdf-cover.png'), pdf.png(1));
    writeFileSync(join(SCREENS_DIR, '33-client-report-pdf-page2.png'), pdf.png(2));
    expect(smtp.mails.map((m) => m.to)).toEqual([['client@sakura.test']]);
    expect(smtp.mails[0]?.data).toMatch(/Content-Type: application\/pdf/);

    // A weekly schedule in Japanese, delivered the same way when its run comes.
    await page.getByRole('button', { name: 'New report' }).click();
    await page.getByLabel('Title').fill('週次レポート');
    await page.getByLabel('Ad account').selectOption({ label: 'Kumo – JP Online' });
    await page.getByRole('radio', { name: 'Weekly' }).check();
    await page.getByLabel('Language').selectOption('ja');
    // The preview speaks the report's language, as the PDF does.
    await expect(preview.getByRole('heading', { name: '主要指標' })).toBeVisible();
    await expect(preview).toHaveAttribute('lang', 'ja');
    await screenshot(page, '33b-client-report-preview-ja');
    const scheduledFolder = join(work, 'Clients', 'Sakura', 'weekly');
    await page.getByLabel('Copy to folder').fill(scheduledFolder);
    await page.getByLabel('E-mail to').fill('weekly@sakura.test');
    await page.getByRole('button', { name: 'Schedule weekly report' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'scheduled' })).toBeVisible();
    await server.control('due-reports');
    const weekly = page.getByRole('row').filter({ hasText: '週次レポート' }).filter({ hasText: 'Completed' });
    await expect(weekly.getByRole('list', { name: 'Deliveries of 週次レポート' })).toContainText(
      'E-mail weekly@sakura.test: delivered',
      { timeout: 60_000 },
    );
    await expect(weekly).toContainText(`Folder ${scheduledFolder}: delivered`);
    await screenshot(page, '34-client-report-scheduled-delivered');
    const [weeklyName] = readdirSync(scheduledFolder);
    const weeklyText = (await pdfPages(readFileSync(join(scheduledFolder, weeklyName as string)))).text;
    expect(weeklyText).toContain('週次レポート');
    expect(weeklyText).toContain('パフォーマンスレポート');
    expect(weeklyText).toContain('Sakura Digital');
    expect(smtp.mails.map((m) => m.to[0])).toEqual(['client@sakura.test', 'weekly@sakura.test']);
  } finally {
    await server.stop();
    await smtp.close();
    rmSync(work, { recursive: true, force: true });
  }
});
