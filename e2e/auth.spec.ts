import { USER, expect, screenshot, test } from './fixtures';

test('an invited analyst accepts the link, sets a password, signs out and signs in again', async ({
  signedIn: page,
  server,
}) => {
  await expect(page.getByRole('navigation', { name: 'Main' })).toContainText(USER.name);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await screenshot(page, '01-sign-in');

  await page.getByLabel('Email').fill(USER.email);
  await page.getByLabel('Password').fill('wrong password!');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('do not match');

  await page.getByLabel('Password').fill(USER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Signing in lands on the first screen, the portfolio.
  await expect(page.getByRole('heading', { name: 'Portfolio', level: 1 })).toBeVisible();

  // The link is one-time: opening it again explains, and creates nobody.
  await page.goto(server.inviteUrl as string);
  await expect(page.getByRole('alert')).toContainText('already used');
});
