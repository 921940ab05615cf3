import { expect, screenshot, test } from './fixtures';

test.describe('a workspace with nothing connected', () => {
  test.use({ serverOptions: { bare: true, invite: 'analyst@agency.test' } });

  test('connects a demo account and follows its first sync to the end', async ({ signedIn: page }) => {
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

test('a token_expired account shows a banner and a re-authentication path', async ({
  signedIn: page,
  server,
}) => {
  await server.control('expire-token');
  const card = page.getByRole('article').first();
  await card.getByRole('button', { name: /Sync .* now/ }).click();
  const banner = card.getByRole('alert').filter({ hasText: 'Access token expired' });
  await expect(banner).toBeVisible({ timeout: 30_000 });
  await expect(banner.getByRole('button', { name: 'Re-authenticate' })).toBeVisible();
  await screenshot(page, '04-token-expired');
  await banner.getByRole('button', { name: 'Re-authenticate' }).click();
  await expect(page.getByRole('heading', { name: /Re-authenticate/ })).toBeVisible();
  await expect(page.getByLabel('Access token')).toBeVisible();
});
