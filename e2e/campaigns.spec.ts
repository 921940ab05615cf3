import { expect, screenshot, test } from './fixtures';

test('browses, sorts and filters campaigns, then reads one campaign’s charts', async ({ signedIn: page }) => {
  await page.getByRole('link', { name: 'Campaigns' }).click();
  const table = page.getByRole('table', { name: 'Campaigns' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await screenshot(page, '05-campaigns');

  await table.getByRole('button', { name: 'Campaign' }).click();
  await expect(table.getByRole('columnheader', { name: 'Campaign' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  const firstName = (await table.getByRole('row').nth(1).getByRole('cell').first().textContent()) ?? '';
  await page.getByRole('searchbox', { name: 'Search' }).fill(firstName.slice(0, 12));
  await expect(table.getByRole('row').nth(1)).toContainText(firstName.slice(0, 12));

  // Keyboard: focus the first row and open it with Enter.
  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await table.getByRole('row').nth(1).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toBeVisible();
  await expect(
    page.getByRole('figure', { name: 'Daily spend and conversions' }).getByRole('application'),
  ).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Cost per acquisition' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Ad sets \(\d+\)/ })).toBeVisible();
  await page.getByLabel('Date range').selectOption('last_14d');
  await expect(page.getByLabel('Date range')).toHaveValue('last_14d');
  await screenshot(page, '06-campaign-detail');

  // The analyst's target CPA: saved, shown, drawn on the CPA chart, then cleared.
  const target = page.getByRole('form', { name: 'Target CPA' });
  await expect(target).toContainText('Current target: none');
  await target.getByLabel('Target CPA (account currency)').fill('42.5');
  await target.getByRole('button', { name: 'Save target' }).click();
  await expect(target.getByRole('status')).toContainText('Saved');
  await expect(target).toContainText(/Current target: \D*42\.50/);
  await expect(page.getByRole('figure', { name: 'Cost per acquisition' })).toContainText('Target CPA');
  await screenshot(page, '16-campaign-target-cpa');
  await target.getByRole('button', { name: 'Clear' }).click();
  await expect(target).toContainText('Current target: none');
  await expect(target.getByLabel('Target CPA (account currency)')).toHaveValue('');
});
