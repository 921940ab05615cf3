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

  // The campaign's goal: refused when invalid, saved beside the actual, drawn on its chart, cleared.
  const goal = page.getByRole('form', { name: 'Campaign goal' });
  await expect(goal).toContainText('Goal: none');
  await goal.getByLabel('Campaign goal kind').selectOption('CPA');
  await goal.getByRole('button', { name: 'Save goal' }).click();
  await expect(goal.getByRole('alert')).toHaveText('Enter a target CPA above zero.');
  await goal.getByRole('spinbutton').fill('42.5');
  await goal.getByRole('button', { name: 'Save goal' }).click();
  await expect(goal.getByRole('status')).toContainText('Saved');
  await expect(goal).toContainText(/Goal: target CPA \D*42\.50/);
  await expect(goal).toContainText(/Actual, in this range: CPA/);
  await expect(page.getByRole('figure', { name: 'Cost per acquisition' })).toContainText('Target CPA');
  await screenshot(page, '16-campaign-goal');
  await goal.getByLabel('Campaign goal kind').selectOption('ROAS');
  await goal.getByRole('spinbutton').fill('300');
  await goal.getByRole('button', { name: 'Save goal' }).click();
  await expect(goal.getByRole('alert')).toHaveText('A ROAS target is a ratio: 3 means 300%.');
  await goal.getByLabel('Campaign goal kind').selectOption('BREAK_EVEN');
  await goal.getByRole('button', { name: 'Save goal' }).click();
  await expect(goal).toContainText('Goal: break-even (ROAS 1.00)');
  await expect(page.getByRole('figure', { name: 'Return on ad spend' })).toContainText('ROAS goal');
  await goal.getByRole('button', { name: 'Clear' }).click();
  await expect(goal).toContainText('Goal: none');

  // The account's goal, set on the accounts screen, is the campaign's until it has its own.
  const campaignUrl = page.url();
  const subtitle = (await page.locator('.page-header .subtitle').textContent()) ?? '';
  await page.getByRole('link', { name: 'Accounts' }).click();
  // The Accounts screen loads on demand (sign-in lands on the portfolio): wait for its cards.
  await expect(page.locator('article h2').first()).toBeVisible();
  const names = await page.locator('article h2').allTextContents();
  const accountName = names.find((n) => subtitle.includes(n)) ?? '';
  expect(accountName).not.toBe('');
  const accountGoal = page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: accountName, exact: true }) })
    .getByRole('form', { name: 'Account goal' });
  await accountGoal.getByLabel('Account goal kind').selectOption('ROAS');
  await accountGoal.getByRole('spinbutton').fill('3');
  await accountGoal.getByRole('button', { name: 'Save goal' }).click();
  await expect(accountGoal).toContainText(/Goal: target ROAS 3\.00× · Actual, last 30 days: ROAS \d/);
  await screenshot(page, '17-account-goal');
  await page.goto(campaignUrl);
  await expect(page.getByRole('form', { name: 'Campaign goal' })).toContainText(
    'Goal: target ROAS 3.00× (account goal)',
  );
  await page.getByRole('link', { name: 'Accounts' }).click();
  await accountGoal.getByRole('button', { name: 'Clear' }).click();
  await expect(accountGoal).toContainText('Goal: none');
});
