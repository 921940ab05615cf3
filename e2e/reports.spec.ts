import { readFileSync } from 'node:fs';
import { expect, screenshot, test } from './fixtures';

test('creates a report, sees it complete in the list, and downloads it', async ({ signedIn: page }) => {
  await page.getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByText('No reports yet.')).toBeVisible();
  await page.getByRole('button', { name: 'New report' }).click();
  await page.getByLabel('Title').fill('Client weekly');
  const picks = page.getByRole('group', { name: /Campaigns/ }).getByRole('checkbox');
  await picks.nth(0).check();
  await picks.nth(1).check();
  await page.getByRole('radio', { name: 'Markdown' }).check();
  await screenshot(page, '09-report-create');
  await page.getByRole('button', { name: 'Generate report' }).click();
  const row = page.getByRole('row').filter({ hasText: 'Client weekly' });
  await expect(row.getByRole('link', { name: 'Download Client weekly' })).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText('2 campaigns');
  await screenshot(page, '10-reports');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('link', { name: /Download/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.md$/);
  const text = readFileSync((await download.path()) as string, 'utf8');
  expect(text).toContain('Client weekly');
});
