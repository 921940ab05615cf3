import { expect, screenshot, test } from './fixtures';

test('creates an API key shown once, uses it against /v1, and revokes it', async ({
  signedIn: page,
  request,
  server,
}) => {
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByTestId('api-address')).toHaveText(`${server.url}/v1`);
  await page.getByLabel('Key name').fill('Reporting script');
  await page.getByRole('button', { name: 'Create API key' }).click();
  const key = (await page.getByTestId('new-api-key').textContent()) ?? '';
  expect(key).toMatch(/^service_test_[0-9A-Za-z]{32}$/);
  await screenshot(page, '11-settings-key');

  const ok = await request.get(`${server.url}/v1/accounts`, { headers: { 'x-api-key': key } });
  expect(ok.status()).toBe(200);
  expect(((await ok.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);

  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('new-api-key')).toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: 'Reporting script' });
  await expect(row).toContainText(`…${key.slice(-4)}`);
  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: 'Revoke Reporting script' }).click();
  await expect(row).toContainText('Revoked');

  const revoked = await request.get(`${server.url}/v1/accounts`, { headers: { 'x-api-key': key } });
  expect(revoked.status()).toBe(401);
  expect(((await revoked.json()) as { error: { type: string } }).error.type).toBe('key_revoked');

  await page.getByLabel('Risk appetite').selectOption('HIGH');
  await expect(page.getByText('Saved. New diagnostics use it.')).toBeVisible();
  await screenshot(page, '12-settings');
});

test('insights show totals with trend arrows, a time series and a breakdown', async ({ signedIn: page }) => {
  await page.getByRole('link', { name: 'Insights' }).click();
  await expect(page.getByRole('figure', { name: 'Spend per day' }).getByRole('application')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'By campaign' })).toBeVisible();
  // Unlike results are never one figure: one row (and cost per result) per result type.
  const types = page.getByRole('table', { name: 'Results by result type' });
  await expect(types.getByRole('row').nth(1)).toBeVisible();
  await expect(page.locator('.kpis')).not.toContainText('Conversions');
  await expect(page.locator('.kpis dt', { hasText: /^Cost per / }).first()).toBeVisible();
  await expect(page.locator('.kpis .trend').first()).toBeVisible();
  await screenshot(page, '13-insights');
});
