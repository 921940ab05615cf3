// Insights across currencies (the demo agency has USD, EUR and GBP accounts): all accounts show one
// total per currency; a reporting currency with rates set in Settings (a bad rate is refused inline)
// then adds the usual tiles in that currency with a note naming the rates.
import { expect, screenshot, test } from './fixtures';

test('totals per currency, then converted at the reporting currency set in Settings', async ({
  signedIn: page,
}) => {
  await page.getByRole('link', { name: 'Insights' }).click();
  const account = page.getByRole('combobox', { name: 'Account', exact: true });
  // The accounts are listed (so the screen knows they mix currencies) before "All accounts" is chosen.
  await expect(account.locator('option').nth(1)).toBeAttached();
  await account.selectOption({ label: 'All accounts' });
  const perCurrency = page.getByRole('table', { name: 'Totals per currency' });
  for (const code of ['EUR', 'GBP', 'USD']) {
    await expect(perCurrency.getByRole('row').filter({ hasText: code })).toHaveCount(1);
  }
  // Without rates nothing is added across currencies: no tiles, a note pointing to Settings.
  const note = page.getByTestId('currency-note');
  await expect(note).toContainText('totals are shown per currency');
  await expect(page.locator('.kpis')).toHaveCount(0);
  await screenshot(page, '40-insights-currencies');

  await note.getByRole('link', { name: 'Reporting currency in Settings' }).click();
  const form = page.getByRole('form', { name: 'Reporting currency and rates' });
  await form.getByRole('combobox', { name: 'Reporting currency' }).fill('USD');
  const rates = form.getByRole('textbox', { name: /rate \(USD per [A-Z]{3}\)/ });
  await expect(rates.first()).toBeVisible();
  const codes = (await rates.all()).length;
  expect(codes).toBeGreaterThanOrEqual(2);
  await form.getByRole('textbox', { name: 'EUR rate (USD per EUR)' }).fill('1,08');
  await form.getByRole('textbox', { name: 'GBP rate (USD per GBP)' }).fill('1.2710');
  for (const input of await rates.all()) {
    if ((await input.inputValue()) === '') await input.fill('0.5');
  }
  await form.getByRole('button', { name: 'Save reporting currency' }).click();
  const error = page.getByRole('alert').filter({ hasText: 'EUR rate: a rate is a positive decimal' });
  await expect(error).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'EUR rate (USD per EUR)' })).toHaveAttribute(
    'aria-invalid',
    'true',
  );

  await form.getByRole('textbox', { name: 'EUR rate (USD per EUR)' }).fill('1.0842');
  await form.getByRole('button', { name: 'Save reporting currency' }).click();
  await expect(page.getByTestId('reporting-currency')).toHaveText('USD');
  await expect(error).toHaveCount(0);
  await page.getByRole('heading', { name: 'Reporting currency', exact: true }).scrollIntoViewIfNeeded();
  await screenshot(page, '41-settings-reporting-currency');

  await page.getByRole('link', { name: 'Insights' }).click();
  await page.getByRole('combobox', { name: 'Account', exact: true }).selectOption({ label: 'All accounts' });
  await expect(page.getByTestId('currency-note')).toContainText(
    "Totals in USD at the agency's rates (EUR 1.0842, GBP 1.2710",
  );
  await expect(page.locator('.kpis dt', { hasText: /^Spend$/ })).toBeVisible();
  await expect(page.locator('.kpis dd').first()).toContainText('$');
  await expect(perCurrency.getByRole('row').filter({ hasText: 'EUR' })).toHaveCount(1);
  await expect(page.getByRole('figure', { name: 'Spend per day' })).toBeVisible();
  await screenshot(page, '42-insights-reporting-currency');

  // All accounts are broken down per account (in USD now); campaigns on request; a line opens its account.
  const byAccount = page.getByRole('region', { name: 'By account' });
  await expect(byAccount.getByRole('columnheader', { name: 'Account' })).toBeVisible();
  await expect(byAccount.locator('tfoot')).toContainText(/Total · \d+ accounts/);
  await screenshot(page, '43-insights-by-account');
  const breakDownBy = page.getByRole('combobox', { name: 'Break down by' });
  await breakDownBy.selectOption('campaign');
  const byCampaign = page.getByRole('region', { name: 'By campaign' });
  await expect(byCampaign.getByRole('columnheader', { name: 'Campaign' })).toBeVisible();
  await expect(byCampaign.locator('tfoot')).toContainText(/Total · \d+ campaigns/);
  await breakDownBy.selectOption('account');
  const firstAccount = byAccount.locator('tbody a').first();
  const name = (await firstAccount.textContent()) ?? '';
  await firstAccount.click();
  const chosen = page.getByRole('combobox', { name: 'Account', exact: true });
  await expect(chosen.locator('option:checked')).toHaveText(new RegExp(`^${name} \\(`));
  await expect(page.getByRole('region', { name: 'By campaign' })).toBeVisible();
  await expect(breakDownBy).toHaveCount(0);
});
