import { expect, screenshot, test } from './fixtures';

test('runs an account diagnostic with visible progress, reads its evidence and gives feedback', async ({
  signedIn: page,
}) => {
  await page.getByRole('link', { name: 'Diagnostics', exact: true }).click();
  await expect(page.getByText('No diagnostics yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Run diagnostic' }).click();
  const panel = page.getByRole('region', { name: 'Run a diagnostic' });
  await expect(panel.getByLabel('Campaign')).toHaveValue('');
  await panel.getByRole('button', { name: 'Run diagnostic' }).click();
  await expect(page).toHaveURL(/#\/diagnostics\/diag_/);
  // Progress is shown while it runs (it may already be done on a fast machine).
  await expect(
    page.getByTestId('diagnostic-running').or(page.getByRole('heading', { name: 'Recommendations' })),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Recommendations' })).toBeVisible({ timeout: 45_000 });
  await expect(page.getByRole('heading', { name: /Issues \([1-9]\d*\)/ })).toBeVisible();
  await expect(page.getByLabel('Summary')).not.toBeEmpty();
  await expect(page.locator('.issue').first().locator('figure, [role=progressbar]').first()).toBeVisible();
  // Each recommendation names its Ads Manager edits; Meta's own recommendations are shown beside ours.
  await expect(page.getByText('In Ads Manager:').first()).toBeVisible();
  const meta = page.getByTestId('meta-recommendations');
  await expect(meta.getByRole('heading', { name: /From Meta · opportunity score \d+\/100/ })).toBeVisible();
  await expect(meta.getByText('Set up the Conversions API')).toBeVisible();
  // Every judged campaign against its goal (or its baseline and the account median without one).
  await expect(page.getByRole('heading', { name: 'Against the goal' })).toBeVisible();
  await expect(page.getByRole('table').filter({ hasText: 'Account median' })).toContainText(
    /No goal|Below goal/,
  );
  await screenshot(page, '07-diagnostic-detail');
  await meta.scrollIntoViewIfNeeded();
  await screenshot(page, '07b-diagnostic-meta-recommendations');

  await page.getByRole('button', { name: 'Mark applied' }).first().click();
  await expect(page.getByRole('button', { name: '✓ Applied' }).first()).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  await page.getByRole('link', { name: 'Diagnostics', exact: true }).first().click();
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(2);
  await page.getByLabel('Status').selectOption('failed');
  await expect(page.getByText('No diagnostic matches these filters.')).toBeVisible();
  await page.getByLabel('Status').selectOption('');
  await screenshot(page, '08-diagnostics');
});

test('runs a diagnostic for one campaign from its detail page', async ({ signedIn: page }) => {
  await page.getByRole('link', { name: 'Campaigns' }).click();
  await page.getByRole('table', { name: 'Campaigns' }).getByRole('row').nth(1).click();
  await page.getByRole('button', { name: 'Run diagnostic' }).click();
  await expect(page).toHaveURL(/#\/diagnostics\/diag_/);
  await expect(page.getByRole('heading', { name: 'Recommendations' })).toBeVisible({ timeout: 45_000 });
  await page.getByRole('link', { name: 'Open campaign' }).click();
  await expect(page.getByText('Latest diagnostic')).toBeVisible();
});
