// Settings → E-mail (SMTP): the agency's server set in the app (the password never shown back), a
// test e-mail received by a real SMTP server started here, quiet hours and the analyst's own digest.
import { expect, screenshot, test } from './fixtures';
import { smtpReceiver } from './smtp-receiver';

test('sets the SMTP server, sends a test e-mail, and sets quiet hours and the morning digest', async ({
  signedIn: page,
  server,
}) => {
  const smtp = await smtpReceiver();
  try {
    await server.control('make-admin');
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.reload();
    const form = page.getByRole('form', { name: 'SMTP server' });
    await form.getByLabel('Host').fill('127.0.0.1');
    await form.getByLabel('Port', { exact: true }).fill(String(smtp.port));
    await form.getByLabel('Security').selectOption('none');
    await form.getByLabel('User', { exact: true }).fill('agency');
    await form.getByLabel('Password').fill('smtp secret 42');
    await form.getByLabel('From address').fill('AdLens <reports@agency.test>');
    await form.getByRole('button', { name: 'Save server' }).click();
    await expect(page.getByText('SMTP server saved.')).toBeVisible();
    // Sealed: never shown back, only that one is saved.
    await expect(form.getByLabel('Password')).toHaveValue('');
    await expect(form.getByLabel('Password')).toHaveAttribute('placeholder', /Saved/);
    expect(await page.content()).not.toContain('smtp secret 42');

    // The test receiver takes no login: the server is saved again without a user.
    await form.getByLabel('User', { exact: true }).fill('');
    await form.getByRole('button', { name: 'Save server' }).click();
    await expect(page.getByText('SMTP server saved.')).toBeVisible();
    await form.getByRole('button', { name: 'Send test e-mail' }).click();
    await expect(page.getByText(/Test e-mail sent to analyst@agency\.test\./)).toBeVisible();
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]?.to).toEqual(['analyst@agency.test']);
    expect(smtp.mails[0]?.data).toContain('AdLens test e-mail');

    const quiet = page.getByRole('form', { name: 'Quiet hours' });
    await quiet.getByLabel('Quiet from').selectOption('22');
    await quiet.getByRole('button', { name: 'Save quiet hours' }).click();
    await expect(page.getByText('quiet hours need both a start and an end hour.')).toBeVisible();
    await quiet.getByLabel('Quiet until').selectOption('7');
    await quiet.getByLabel('Quiet hours time zone').fill('Asia/Tokyo');
    await quiet.getByRole('button', { name: 'Save quiet hours' }).click();
    await expect(page.getByText('Quiet hours saved.')).toBeVisible();

    const digest = page.getByRole('form', { name: 'Morning digest' });
    await digest.getByLabel('My morning digest at').selectOption('8');
    await digest.getByLabel('Digest time zone').fill('Europe/Berlin');
    await digest.getByRole('button', { name: 'Save digest' }).click();
    await expect(page.getByText('Morning digest saved.')).toBeVisible();

    // What was saved is what the screen shows after a reload.
    await page.reload();
    await expect(page.getByRole('form', { name: 'Quiet hours' }).getByLabel('Quiet from')).toHaveValue('22');
    await expect(
      page.getByRole('form', { name: 'Morning digest' }).getByLabel('My morning digest at'),
    ).toHaveValue('8');
    await expect(
      page.getByRole('form', { name: 'SMTP server' }).getByLabel('Port', { exact: true }),
    ).toHaveValue(String(smtp.port));
    await screenshot(page, '40-settings-email');
  } finally {
    await smtp.close();
  }
});
