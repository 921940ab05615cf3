import { expect, screenshot, test } from './fixtures';

const DATED_TICK = /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)$/;

test('the analyst’s morning: portfolio → account overview → a diagnostic with dated charts → the issue’s ad set', async ({
  signedIn: page,
}) => {
  test.setTimeout(120_000);
  // The portfolio is the first screen of the navigation (and of an empty route).
  await page.getByRole('link', { name: 'Portfolio', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Portfolio', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Portfolio' });
  const rows = table.locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThan(2);
  // Sorted by attention: the first row is the one with the most to say (the disabled demo account).
  await expect(rows.first()).not.toContainText('Nothing urgent');
  await expect(table).toContainText(/On track|Behind|Ahead|No budget/);
  await screenshot(page, '20-portfolio');

  // Keyboard: the second row, then Enter, opens that account's overview.
  await rows.first().focus();
  await page.keyboard.press('ArrowDown');
  const chosen = (await rows.nth(1).locator('strong').first().textContent()) ?? '';
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/accounts\/act_/);
  await expect(page.getByRole('heading', { name: chosen, level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Results by result type' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Top open issues' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Recent changes' })).toBeVisible();
  const trend = page.getByRole('figure', { name: /Spend per day/ });
  await expect(
    trend.locator('.recharts-cartesian-axis-tick-value', { hasText: DATED_TICK }).first(),
  ).toBeVisible();
  await screenshot(page, '21-account-overview');

  // A whole-account diagnostic of the busiest account.
  await page.getByRole('link', { name: 'Diagnostics', exact: true }).first().click();
  await page.getByRole('button', { name: 'Run diagnostic' }).click();
  await page
    .getByRole('region', { name: 'Run a diagnostic' })
    .getByRole('button', { name: 'Run diagnostic' })
    .click();
  await expect(page).toHaveURL(/#\/diagnostics\/diag_/);
  await expect(page.getByRole('heading', { name: 'Recommendations' })).toBeVisible({ timeout: 45_000 });
  const issue = page
    .locator('.issue')
    .filter({ has: page.locator('figure') })
    .first();
  const chart = issue.locator('figure').first();
  await expect(chart).toBeVisible();
  await expect(
    chart.locator('.recharts-cartesian-axis-tick-value', { hasText: DATED_TICK }).first(),
  ).toBeVisible();
  await expect(chart).not.toContainText('Day 1');
  await expect(chart).toContainText('Baseline');
  await expect(chart.locator('.recharts-reference-area')).toHaveCount(1);
  await expect(page.getByRole('heading', { name: 'What changed since the last diagnostic' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Diagnostic history \(\d+\)/ })).toBeVisible();
  await chart.scrollIntoViewIfNeeded();
  await screenshot(page, '22-diagnostic-dated-chart');

  // The list names the account of a whole-account diagnostic.
  await page.getByRole('link', { name: 'Diagnostics', exact: true }).first().click();
  await expect(page.getByRole('link', { name: /^Whole account: .+/ }).first()).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Recommendations' })).toBeVisible();

  // Each issue links to its ad set or ad (the row is marked on the campaign page), or its campaign.
  const adSetLink = page.locator('.issue a', { hasText: /^Open ad set / }).first();
  const link =
    (await adSetLink.count()) > 0 ? adSetLink : page.locator('.issue a', { hasText: /^Open / }).first();
  const target = (await link.getAttribute('href')) ?? '';
  await link.click();
  if (target.includes('focus=')) {
    await expect(page).toHaveURL(/#\/campaigns\/camp_.*\?focus=/);
    const focused = page.locator('tr[aria-current="true"]');
    await expect(focused).toBeVisible();
    await expect(focused).toBeInViewport();
  } else {
    await expect(page).toHaveURL(/#\/(campaigns|accounts)\//);
  }
  await screenshot(page, '23-issue-link');

  // Back on the portfolio, the diagnosed account now shows its open issues and the money at risk.
  await page.getByRole('link', { name: 'Portfolio', exact: true }).click();
  await expect(table.locator('.issue-counts').first()).toBeVisible();
  await expect(table).toContainText(/\d+ (Critical|High|Medium|Low)/);
  await screenshot(page, '24-portfolio-with-issues');
});
