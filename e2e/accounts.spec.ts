import { expect, screenshot, test } from './fixtures';

test.describe('a workspace with nothing connected', () => {
  test.use({ serverOptions: { bare: true, invite: 'analyst@agency.test' } });

  test('connects a demo account and follows its first sync to the end', async ({ signedIn: page }) => {
    await page.getByRole('link', { name: 'Accounts', exact: true }).click();
    await expect(page.getByText('No ad accounts yet.')).toBeVisible();
    await page.getByRole('button', { name: 'Connect account' }).click();
    const connect = page
      .getByRole('region', { name: 'Connect an ad account' })
      .getByRole('button', { name: /^Connect / })
      .first();
    await expect(connect).toBeVisible();
    await screenshot(page, '02-connect-demo');
    await connect.click();
    const card = page.getByRole('article').first();
    await expect(card).toBeVisible();
    // Either the progress bar is caught mid-sync or the sync already finished; both end in "Sync now".
    await expect(card.getByRole('button', { name: /Sync .* now/ })).toBeEnabled({ timeout: 45_000 });
    await expect(card).toContainText(/Campaigns\s*\d+/);
    await expect(card).not.toContainText('Campaigns0');
    await screenshot(page, '03-accounts');
  });
});

test('a token_expired account shows a banner and re-authenticates; disconnect asks first and reconnects', async ({
  signedIn: page,
  server,
}) => {
  test.setTimeout(120_000); // several platform round trips, each allowed to wait behind start-up syncs
  await server.control('expire-token');
  await page.getByRole('link', { name: 'Accounts', exact: true }).click();
  // Pinned by name: broken accounts sort first, so positions change as states do.
  const name = (await page.getByRole('article').first().getAttribute('aria-label')) ?? '';
  const card = page.getByRole('article', { name, exact: true });
  await card.getByRole('button', { name: /Sync .* now/ }).click();
  const banner = card.getByRole('alert').filter({ hasText: 'Access token expired' });
  await expect(banner).toBeVisible({ timeout: 30_000 });
  await expect(banner.getByRole('button', { name: 'Re-authenticate' })).toBeVisible();
  await screenshot(page, '04-token-expired');
  await banner.getByRole('button', { name: 'Re-authenticate' }).click();
  await expect(page.getByRole('heading', { name: /Re-authenticate/ })).toBeVisible();
  await expect(page.getByLabel('Access token')).toBeVisible();

  // The platform accepts the demo token again: re-authenticating brings the account back and syncs it.
  await screenshot(page, '19-account-reauth');
  await server.control('restore-token');
  await page.getByRole('button', { name: 'Reconnect with the demo token' }).click();
  // Reconnecting asks the platform first, which may answer behind the start-up syncs on a busy machine.
  await expect(card.getByRole('alert')).toHaveCount(0, { timeout: 30_000 });
  await expect(card).toContainText('Connection: active', { timeout: 30_000 });
  await expect(card.getByRole('button', { name: /Sync .* now/ })).toBeEnabled({ timeout: 30_000 });

  // Disconnect asks first; keeping the account changes nothing.
  await card.getByRole('button', { name: /^Disconnect / }).click();
  const confirm = card.getByRole('alertdialog');
  await expect(confirm).toContainText('Syncing stops');
  await screenshot(page, '17-account-disconnect-confirm');
  await confirm.getByRole('button', { name: 'Keep connected' }).click();
  await expect(card).toContainText('Connection: active');
  await card.getByRole('button', { name: /^Disconnect / }).click();
  await card.getByRole('alertdialog').getByRole('button', { name: 'Yes, disconnect' }).click();
  const disconnected = card.getByRole('alert').filter({ hasText: 'Account disconnected' });
  await expect(disconnected).toBeVisible();
  await expect(card.getByRole('button', { name: /Sync .* now/ })).toBeDisabled();
  await expect(card).toContainText(/Campaigns\s*[1-9]/); // history stays
  await screenshot(page, '18-account-disconnected');
  await disconnected.getByRole('button', { name: 'Reconnect' }).click();
  await expect(page.getByRole('heading', { name: /^Reconnect / })).toBeVisible();
  await page.getByRole('button', { name: 'Reconnect with the demo token' }).click();
  await expect(card).toContainText('Connection: active', { timeout: 30_000 });
  await expect(card.getByRole('button', { name: /Sync .* now/ })).toBeEnabled({ timeout: 30_000 });
});
