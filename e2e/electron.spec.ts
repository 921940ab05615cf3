// The desktop host through Playwright's _electron. Runs wherever an Electron binary is installed
// (npm's electron package downloads it lazily; this machine cannot), and skips with the reason otherwise.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';

/** The installed binary, found the way electron's index.js does, but without its download attempt. */
function electronBinary(): string | null {
  const root = join(process.cwd(), 'node_modules', 'electron');
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const path = join(process.env.ELECTRON_OVERRIDE_DIST_PATH, 'electron');
    return existsSync(path) ? path : null;
  }
  const pathFile = join(root, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const path = join(root, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(path) ? path : null;
}

const binary = electronBinary();

test.describe('desktop window', () => {
  test.skip(
    binary === null,
    'No Electron binary on this machine (node_modules/electron has not downloaded it); the browser specs cover the same renderer.',
  );

  test('opens the portfolio (the first screen) over IPC with a sandboxed renderer', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'adlens-electron-'));
    const app = await electron.launch({
      executablePath: binary as string,
      args: [join(process.cwd(), 'out/main/index.js')],
      env: { ...process.env, ADLENS_DATA_DIR: dataDir },
    });
    try {
      const page = await app.firstWindow();
      await expect(page.getByRole('heading', { name: 'Portfolio', level: 1 })).toBeVisible({
        timeout: 30_000,
      });
      expect(await page.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe(
        'undefined',
      );
      expect(
        await page.evaluate(
          () => typeof (window as unknown as { adlens?: { handlers: object } }).adlens?.handlers,
        ),
      ).toBe('object');
      await page.getByRole('link', { name: 'Settings' }).click();
      await expect(page.getByTestId('api-address')).toContainText('http://127.0.0.1:');
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
