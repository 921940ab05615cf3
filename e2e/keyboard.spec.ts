// Every action reachable by keyboard, with visible focus: on each main screen, whatever looks
// clickable (a pointer cursor) can take focus itself or sits inside something that can, and Tab
// walks through the screen's controls with a focus ring on each one.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const SCREENS = ['Accounts', 'Campaigns', 'Diagnostics', 'Reports', 'Insights', 'Settings'];

/** Elements that look clickable but cannot be reached by keyboard. */
async function unreachableClickables(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // tabindex="-1" counts: rows of a table move focus with the arrow keys (one tab stop per table).
    const focusable = (el: Element): boolean =>
      el instanceof HTMLElement &&
      (el.tabIndex >= 0 || el.hasAttribute('tabindex')) &&
      !el.hasAttribute('disabled') &&
      !el.inert;
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      if (!(el instanceof HTMLElement) || el.offsetParent === null) continue;
      if (getComputedStyle(el).cursor !== 'pointer') continue;
      let node: Element | null = el;
      let reachable = false;
      while (node && node !== document.body) {
        // A label forwards its click to its control; a summary is focusable by default.
        if (focusable(node) || node.tagName === 'LABEL') {
          reachable = true;
          break;
        }
        node = node.parentElement;
      }
      if (!reachable)
        out.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent?.slice(0, 40)}"`);
    }
    return out;
  });
}

/** Tabs through up to `steps` controls; returns those that showed no focus indicator. */
async function focusWithoutRing(page: Page, steps: number): Promise<string[]> {
  const missing: string[] = [];
  for (let i = 0; i < steps; i += 1) {
    await page.keyboard.press('Tab');
    const result = await page.evaluate(() => {
      const el = document.activeElement;
      if (!(el instanceof HTMLElement) || el === document.body) return null;
      const style = getComputedStyle(el);
      // A focused table row marks itself with a bar on its first cell instead of an outline.
      const cell = el.tagName === 'TR' ? el.querySelector('td') : null;
      const ring =
        (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) ||
        style.boxShadow !== 'none' ||
        (cell !== null && getComputedStyle(cell).boxShadow !== 'none');
      return ring ? '' : `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    });
    if (result) missing.push(result);
  }
  return missing;
}

test('every main screen can be used by keyboard, with a visible focus ring', async ({ signedIn: page }) => {
  for (const screen of SCREENS) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: screen }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: screen, level: 1 })).toBeVisible();
    // The screen's data has arrived once no loading state is left.
    await expect(page.locator('.state-loading')).toHaveCount(0);
    expect(await unreachableClickables(page), `clickables without keyboard access on ${screen}`).toEqual([]);
    expect(await focusWithoutRing(page, 25), `focus without a ring on ${screen}`).toEqual([]);
  }
});
