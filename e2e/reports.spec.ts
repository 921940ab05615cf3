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

test('schedules a weekly report: its next run waits as pending with a due time, and cancelling asks first', async ({
  signedIn: page,
}) => {
  await page.getByRole('link', { name: 'Reports' }).click();
  await page.getByRole('button', { name: 'New report' }).click();
  await page.getByLabel('Title').fill('Monday digest');
  await page.getByRole('radio', { name: 'Weekly' }).check();
  await expect(page.getByLabel('From')).toHaveCount(0);
  await expect(page.getByText('Every Monday at 06:00 UTC')).toBeVisible();
  await page.getByRole('radio', { name: 'Markdown' }).check();
  await screenshot(page, '14-report-schedule-create');
  await page.getByRole('button', { name: 'Schedule weekly report' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'scheduled' })).toContainText(/Next run: Mon, /);
  const schedules = page.getByRole('region', { name: 'Recurring reports' });
  const schedule = schedules.getByRole('row').filter({ hasText: 'Monday digest' });
  await expect(schedule).toContainText('Weekly');
  await expect(schedule).toContainText(/Mon, \d+ \w+ \d{4}/);
  const pending = page.getByRole('table').last().getByRole('row').filter({ hasText: 'Monday digest' });
  await expect(pending).toContainText('Scheduled');
  await expect(pending).toContainText(/Due Mon, /);
  await screenshot(page, '15-report-schedules');

  await schedule.getByRole('button', { name: 'Cancel schedule Monday digest' }).click();
  await schedule.getByRole('button', { name: 'Stop schedule' }).click();
  await expect(schedules).toHaveCount(0);
  await expect(page.getByText('No reports yet.')).toBeVisible();
});
