// The analyst's campaigns table: a custom range compared with the previous period (changes and a
// totals row), column sets and the chooser, a saved view, CSV and XLSX downloads checked from their
// bytes, keyboard navigation, and the same date-range control on the campaign page and Insights.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readXlsx } from '../src/test-support/xlsx-reader';
import { expect, screenshot, test } from './fixtures';

const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A minimal RFC 4180 reader (quoted fields, doubled quotes, CRLF), independent of the writer. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let field = '';
  let row: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  return rows;
}

test('custom range with comparison, columns, saved view, exports and keyboard', async ({
  signedIn: page,
}) => {
  await page.getByRole('link', { name: 'Campaigns' }).click();
  const table = page.getByRole('table', { name: 'Campaigns' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();

  // One account (the Japanese client: yen has no minor units), so money totals are in one currency.
  const account = page.getByLabel('Account');
  const labels = await account.locator('option').allTextContents();
  const firstAccount = labels.find((l) => /Japan|JP Online/.test(l)) as string;
  await account.selectOption({ label: firstAccount });

  // A custom range compared with the previous period.
  const from = day(-21);
  const to = day(-8);
  await page.getByLabel('Date range').selectOption('custom');
  await page.getByLabel('From', { exact: true }).fill(from);
  await page.getByLabel('To', { exact: true }).fill(to);
  await page.getByLabel('Compare to').selectOption('previous_period');
  await expect(page.getByText(/ vs /).first()).toBeVisible();
  const firstRow = table.locator('tbody tr[data-row-index="0"]');
  await expect(firstRow.locator('.delta').first()).toBeVisible();
  await expect(firstRow.locator('.delta-good, .delta-bad, .delta-neutral').first()).toBeVisible();
  const totals = table.locator('tfoot tr');
  await expect(totals).toContainText('Total ·');
  await expect(totals.locator('.delta').first()).toBeVisible();
  // Full names: a name that is clamped can still be read whole (row title).
  const name = (await firstRow.locator('a.cell-name').textContent()) ?? '';
  await expect(firstRow).toHaveAttribute('title', `${name} · ${firstAccount}`);
  await screenshot(page, '30-campaigns-range-comparison');

  // Column sets and the chooser.
  await page.getByRole('combobox', { name: 'Columns', exact: true }).selectOption('engagement');
  await expect(table.getByRole('columnheader', { name: 'CTR (link)' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Cost per result' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Choose columns…' }).click();
  const chooser = page.getByRole('group', { name: 'Choose columns' });
  await chooser.getByRole('checkbox', { name: 'Reach' }).check();
  await chooser.getByRole('button', { name: 'Move Reach left' }).click();
  await chooser.getByRole('checkbox', { name: 'Clicks (all)' }).uncheck();
  await screenshot(page, '31-campaigns-column-chooser');
  await chooser.getByRole('button', { name: 'Done' }).click();
  const headers = async (): Promise<string[]> =>
    (await table.locator('thead th').allTextContents()).map((h) => h.replace(/[▲▼]/g, '').trim());
  expect(await headers()).toEqual([
    'Campaign',
    'Result type',
    'Impressions',
    'Link clicks',
    'CTR (link)',
    'CPC (link)',
    'Reach',
    'Spend',
  ]);
  await expect(page.getByRole('combobox', { name: 'Columns', exact: true })).toHaveValue('custom');

  // A saved view keeps columns, sort, filters and the range.
  await page.getByRole('button', { name: 'Save view…' }).click();
  await page.getByLabel('View name').fill('Morning check');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('combobox', { name: 'Saved view' })).toHaveValue(/view_/);
  await page.getByRole('combobox', { name: 'Columns', exact: true }).selectOption('performance');
  await page.getByLabel('Date range').selectOption('last_7d');
  await expect(table.getByRole('columnheader', { name: 'Reach' })).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Saved view' }).selectOption({ label: 'Morning check' });
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(from);
  await expect(page.getByLabel('Compare to')).toHaveValue('previous_period');
  expect(await headers()).toContain('Reach');
  await expect(table.getByRole('columnheader', { name: 'Spend' })).toHaveAttribute('aria-sort', /descending/);
  await screenshot(page, '32-campaigns-saved-view');
  const shown = Number(
    /^([\d,]+) of/
      .exec((await page.getByText(/ of [\d,]+ campaigns/).textContent()) ?? '')?.[1]
      ?.replace(/,/g, ''),
  );
  expect(shown).toBeGreaterThan(0);

  // CSV: exactly what is shown, checked from the downloaded bytes.
  const [csvDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const csvBytes = readFileSync((await csvDownload.path()) as string);
  expect([...csvBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const csv = parseCsv(csvBytes.toString('utf8').slice(1));
  const visible = await headers();
  const metric = (h: string) => !['Campaign', 'Result type'].includes(h);
  expect(csv[0]).toEqual([
    ...visible.flatMap((h) => (metric(h) ? [h, `${h} change`, `${h} change %`] : [h])),
    'Currency',
  ]);
  expect(csv).toHaveLength(shown + 2);
  const spendAt = csv[0]!.indexOf('Spend');
  const spends = csv.slice(1, -1).map((r) => Number(r[spendAt]));
  // Sorted by spend, descending, as on screen; the totals row adds them up.
  expect(spends).toEqual([...spends].sort((a, b) => b - a));
  const total = csv.at(-1)!;
  expect(total[0]).toBe(`Total (${shown} campaigns)`);
  expect(Number(total[spendAt])).toBeCloseTo(
    spends.reduce((s, v) => s + v, 0),
    1,
  );

  // XLSX: read back by an independent parser; numbers are numbers, money has its currency.
  const [xlsxDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export XLSX' }).click(),
  ]);
  expect(xlsxDownload.suggestedFilename()).toBe(`campaigns_${from}_${to}.xlsx`);
  const dir = join('e2e', 'artifacts', 'downloads');
  mkdirSync(dir, { recursive: true });
  const xlsxPath = join(dir, 'campaigns.xlsx');
  writeFileSync(xlsxPath, readFileSync((await xlsxDownload.path()) as string));
  const book = readXlsx(xlsxPath);
  expect(book.rows[0]!.map((c) => c.value)).toEqual(csv[0]!.slice(0, -1));
  expect(book.rows).toHaveLength(shown + 2);
  const spendCell = book.rows[1]![spendAt]!;
  expect(spendCell.type).toBe('n');
  expect(Number(spendCell.value)).toBeCloseTo(spends[0]!, 2);
  expect(spendCell.numFmt).toMatch(new RegExp(`"${csv[1]!.at(-1)}"$`));
  expect(book.rows.at(-1)![0]!.bold).toBe(true);

  // Keyboard: arrows move between rows with visible focus, Enter opens the campaign.
  await firstRow.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const focused = page.locator('tbody tr:focus');
  await expect(focused).toHaveAttribute('data-row-index', '2');
  const ring = await focused
    .locator('td')
    .first()
    .evaluate((td) => getComputedStyle(td).boxShadow);
  expect(ring).not.toBe('none');
  const focusedName = (await focused.locator('a.cell-name').textContent()) ?? '';
  await page.keyboard.press('Enter');
  const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(breadcrumb).toContainText(focusedName);

  // The campaign page has the same control, remembered for itself.
  await page.getByLabel('Compare to').selectOption('previous_period');
  await expect(page.locator('.kpi-trend').first()).toBeVisible();
  await screenshot(page, '33-campaign-detail-comparison');
  await breadcrumb.getByRole('link', { name: 'Campaigns' }).click();
  await expect(page.getByLabel('Date range')).toHaveValue('custom');
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(from);

  // Insights: the same control, with "same period last year".
  await page.getByRole('link', { name: 'Insights' }).click();
  await page.getByLabel('Date range').selectOption('last_28d');
  await page.getByLabel('Compare to').selectOption('same_period_last_year');
  await expect(page.getByText(/compared with the same period last year/)).toBeVisible();
  await screenshot(page, '34-insights-date-range');
});
