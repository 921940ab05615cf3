// CSV and XLSX of exactly what the campaigns table shows: its visible columns in their order, its
// rows as sorted and filtered, the changes against the comparison period when one is shown, and
// the totals row. In XLSX numbers stay numbers and money carries its currency's format.
import { zipSync, strToU8 } from 'fflate';
import type { CampaignRow } from '../../../../shared/ipc';
import { cellValue, type CampaignColumn } from './columns';
import { deltaOf, rowValues, type MetricValues, type Totals } from './table-metrics';

export type CellFormat = 'text' | 'integer' | 'decimal' | 'ratio' | 'percent' | 'money';

export interface Cell {
  value: string | number | null;
  format: CellFormat;
  currency?: string | undefined;
}

export interface ExportTable {
  header: string[];
  rows: Cell[][];
  /** The totals row (last), kept apart so it can be styled. */
  totals: Cell[];
}

const FORMAT_OF: Record<CampaignColumn['kind'], CellFormat> = {
  text: 'text',
  money: 'money',
  integer: 'integer',
  percent: 'percent',
  ratio: 'ratio',
  decimal: 'decimal',
};

function metricCells(
  column: CampaignColumn,
  current: MetricValues | null,
  previous: MetricValues | null,
  comparing: boolean,
  currency: string | undefined,
): Cell[] {
  const metric = column.metric;
  if (!metric) return [];
  const format = FORMAT_OF[column.kind];
  const value = current ? metric.of(current) : null;
  const cells: Cell[] = [{ value, format, currency }];
  if (comparing) {
    const delta = deltaOf(value, previous ? metric.of(previous) : null, metric.good);
    cells.push({ value: delta?.absolute ?? null, format, currency });
    cells.push({ value: delta?.percent ?? null, format: 'percent' });
  }
  return cells;
}

/** The table as cells: header, one line per row, and the totals line. */
export function exportTable(
  rows: readonly CampaignRow[],
  columns: readonly CampaignColumn[],
  totals: { current: Totals; previous: Totals | null },
  comparing: boolean,
): ExportTable {
  const header: string[] = [];
  for (const c of columns) {
    header.push(c.label);
    if (comparing && c.metric) header.push(`${c.label} change`, `${c.label} change %`);
  }
  const body = rows.map((row) =>
    columns.flatMap((c): Cell[] => {
      if (c.metric)
        return metricCells(
          c,
          rowValues(row, row.resultType),
          row.previous ? rowValues(row.previous, row.resultType) : null,
          comparing,
          row.currency,
        );
      const value = cellValue(c, row);
      return [{ value, format: FORMAT_OF[c.kind], currency: row.currency }];
    }),
  );
  const currency = totals.current.currency ?? undefined;
  const totalsLine = columns.flatMap((c, index): Cell[] => {
    if (c.metric)
      return metricCells(c, totals.current.values, totals.previous?.values ?? null, comparing, currency);
    if (index === 0) return [{ value: `Total (${totals.current.campaigns} campaigns)`, format: 'text' }];
    if (c.key === 'resultType') return [{ value: resultsText(totals.current), format: 'text' }];
    return [{ value: null, format: 'text' }];
  });
  return { header, rows: body, totals: totalsLine };
}

/** "120 Purchases · 30 Leads (form)": results per result type, never one sum. */
export function resultsText(totals: Totals): string {
  return totals.byResultType
    .filter((t) => t.results > 0)
    .map((t) => `${t.results.toLocaleString('en-US')} ${t.name}`)
    .join(' · ');
}

// ——— CSV ———

/** Spreadsheet formula injection: text starting with these is read as a formula by Excel. */
const FORMULA_START = /^[=+\-@\t\r]/;

function csvField(cell: Cell | string): string {
  const value = typeof cell === 'string' ? cell : cell.value;
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * RFC 4180 CSV (CRLF lines, quoted fields where needed), with a UTF-8 byte order mark so Excel reads
 * non-Latin names; numbers as plain decimals, money without symbol plus a Currency column.
 */
export function toCsv(table: ExportTable): string {
  const hasMoney = table.rows.some((r) => r.some((c) => c.format === 'money'));
  const currencyOf = (line: Cell[]): string => line.find((c) => c.format === 'money')?.currency ?? '';
  const lines = [hasMoney ? [...table.header, 'Currency'] : table.header].map((h) => h.map(csvField));
  for (const line of [...table.rows, table.totals]) {
    const fields = line.map(csvField);
    lines.push(hasMoney ? [...fields, csvField(currencyOf(line))] : fields);
  }
  return `\uFEFF${lines.map((l) => l.join(',')).join('\r\n')}\r\n`;
}

// ——— XLSX (Office Open XML, SpreadsheetML) ———

const xml = (text: string): string =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // Characters XML 1.0 cannot carry.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '');

function columnName(index: number): string {
  let n = index + 1;
  let name = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    name = String.fromCharCode(65 + r) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/** Money formats: the ISO code after the amount, with the currency's own minor units. */
function moneyFormat(currency: string): string {
  const digits =
    new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
    2;
  return `#,##0${digits > 0 ? `.${'0'.repeat(digits)}` : ''} "${currency}"`;
}

interface Styles {
  xml: string;
  styleOf(cell: Cell, bold: boolean): number;
}

function buildStyles(table: ExportTable): Styles {
  const currencies = [
    ...new Set(
      [...table.rows, table.totals].flatMap((l) =>
        l.filter((c) => c.format === 'money').map((c) => c.currency ?? ''),
      ),
    ),
  ]
    .filter(Boolean)
    .sort();
  // Custom number formats start at 164.
  const numFmts: Array<{ id: number; code: string }> = [
    { id: 164, code: '0.00"×"' },
    { id: 165, code: '0.00"%"' },
    ...currencies.map((c, i) => ({ id: 166 + i, code: moneyFormat(c) })),
  ];
  const formatIds: Record<Exclude<CellFormat, 'money'>, number> = {
    text: 0,
    integer: 3, // #,##0 (built in)
    decimal: 2, // 0.00 (built in)
    ratio: 164,
    percent: 165,
  };
  const xfs: Array<{ numFmtId: number; bold: boolean }> = [];
  const index = new Map<string, number>();
  const xfOf = (numFmtId: number, bold: boolean): number => {
    const key = `${numFmtId}:${bold}`;
    let i = index.get(key);
    if (i === undefined) {
      i = xfs.length;
      xfs.push({ numFmtId, bold });
      index.set(key, i);
    }
    return i;
  };
  xfOf(0, false); // default style 0
  xfOf(0, true); // header
  const numFmtOf = (cell: Cell): number =>
    cell.format === 'money'
      ? (numFmts.find((f) => f.code === moneyFormat(cell.currency ?? ''))?.id ?? 2)
      : formatIds[cell.format];
  for (const line of table.rows) for (const cell of line) xfOf(numFmtOf(cell), false);
  for (const cell of table.totals) xfOf(numFmtOf(cell), true);
  const stylesXml =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    `<numFmts count="${numFmts.length}">${numFmts.map((f) => `<numFmt numFmtId="${f.id}" formatCode="${xml(f.code)}"/>`).join('')}</numFmts>` +
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${xfs.length}">${xfs
      .map(
        (x) =>
          `<xf numFmtId="${x.numFmtId}" fontId="${x.bold ? 1 : 0}" fillId="0" borderId="0" xfId="0"${x.numFmtId ? ' applyNumberFormat="1"' : ''}${x.bold ? ' applyFont="1"' : ''}/>`,
      )
      .join('')}</cellXfs>` +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
    '</styleSheet>';
  return { xml: stylesXml, styleOf: (cell, bold) => xfOf(numFmtOf(cell), bold) };
}

function cellXml(ref: string, cell: Cell, style: number): string {
  const s = style ? ` s="${style}"` : '';
  if (cell.value === null) return style ? `<c r="${ref}"${s}/>` : '';
  if (typeof cell.value === 'number') return `<c r="${ref}"${s}><v>${cell.value}</v></c>`;
  return `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${xml(cell.value)}</t></is></c>`;
}

/** The table as an .xlsx file (one sheet, header frozen, totals in bold). */
export function toXlsx(table: ExportTable, sheetName = 'Campaigns'): Uint8Array {
  const styles = buildStyles(table);
  const lines: string[] = [];
  const headerCells = table.header.map((h, i) =>
    cellXml(`${columnName(i)}1`, { value: h, format: 'text' }, 1),
  );
  lines.push(`<row r="1">${headerCells.join('')}</row>`);
  table.rows.forEach((line, r) => {
    const n = r + 2;
    lines.push(
      `<row r="${n}">${line.map((cell, i) => cellXml(`${columnName(i)}${n}`, cell, styles.styleOf(cell, false))).join('')}</row>`,
    );
  });
  const t = table.rows.length + 2;
  lines.push(
    `<row r="${t}">${table.totals.map((cell, i) => cellXml(`${columnName(i)}${t}`, cell, styles.styleOf(cell, true))).join('')}</row>`,
  );
  const widths = table.header
    .map(
      (h, i) =>
        `<col min="${i + 1}" max="${i + 1}" width="${i === 0 ? 48 : Math.max(12, h.length + 2)}" customWidth="1"/>`,
    )
    .join('');
  const sheet =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
    `<cols>${widths}</cols><sheetData>${lines.join('')}</sheetData></worksheet>`;
  const files = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      '</Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
      '</Relationships>',
    'xl/workbook.xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
      `<sheets><sheet name="${xml(sheetName.slice(0, 31))}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
      '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
      '</Relationships>',
    'xl/styles.xml': styles.xml,
    'xl/worksheets/sheet1.xml': sheet,
  };
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])), {
    level: 6,
  });
}
