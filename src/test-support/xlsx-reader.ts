// Reads an .xlsx back with a parser that is not ours: Python's zipfile and ElementTree when python3 is
// on the machine (a strict XML parser: malformed XML fails), else the unzip and XML parsing of this
// file (fflate is what wrote it, so the Python path is preferred). Gives each cell's type, value and
// number format, which is what Excel and LibreOffice use to show it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { unzipSync, strFromU8 } from 'fflate';

export interface ReadCell {
  ref: string;
  /** n: number, s / inlineStr / str: text. */
  type: string;
  value: string;
  numFmt: string | null;
  bold: boolean;
}

export interface ReadWorkbook {
  reader: 'python' | 'fflate';
  sheetName: string;
  rows: ReadCell[][];
}

const PYTHON = String.raw`
import json, sys, zipfile, xml.etree.ElementTree as ET
ns = {'m': 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'}
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None
names = set(z.namelist())
for required in ['[Content_Types].xml', '_rels/.rels', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels']:
    assert required in names, required
wb = ET.fromstring(z.read('xl/workbook.xml'))
sheet = wb.find('m:sheets/m:sheet', ns).get('name')
builtin = {0: None, 1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00', 9: '0%', 10: '0.00%'}
fmts, xfs = {}, []
if 'xl/styles.xml' in names:
    st = ET.fromstring(z.read('xl/styles.xml'))
    for f in st.iterfind('m:numFmts/m:numFmt', ns):
        fmts[int(f.get('numFmtId'))] = f.get('formatCode')
    fonts = [f.find('m:b', ns) is not None for f in st.iterfind('m:fonts/m:font', ns)]
    for x in st.iterfind('m:cellXfs/m:xf', ns):
        n = int(x.get('numFmtId', '0'))
        xfs.append((fmts.get(n, builtin.get(n)), fonts[int(x.get('fontId', '0'))]))
ws = ET.fromstring(z.read('xl/worksheets/sheet1.xml'))
rows = []
for r in ws.iterfind('m:sheetData/m:row', ns):
    cells = []
    for c in r.iterfind('m:c', ns):
        t = c.get('t', 'n')
        if t == 'inlineStr':
            v = ''.join(x.text or '' for x in c.iterfind('m:is/m:t', ns))
        else:
            e = c.find('m:v', ns)
            v = e.text if e is not None else ''
        s = int(c.get('s', '0'))
        fmt, bold = xfs[s] if s < len(xfs) else (None, False)
        cells.append({'ref': c.get('r'), 'type': t, 'value': v, 'numFmt': fmt, 'bold': bold})
    rows.append(cells)
print(json.dumps({'reader': 'python', 'sheetName': sheet, 'rows': rows}))
`;

export function readXlsx(path: string): ReadWorkbook {
  const py = spawnSync('python3', ['-c', PYTHON, path], { encoding: 'utf8' });
  if (py.error === undefined && py.status === 0) return JSON.parse(py.stdout) as ReadWorkbook;
  if (py.error === undefined) throw new Error(`python could not read ${path}: ${py.stderr}`);
  return readWithFflate(path);
}

function attr(tag: string, name: string): string | null {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? null;
}

const unescape = (s: string): string =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

function readWithFflate(path: string): ReadWorkbook {
  const files = unzipSync(readFileSync(path));
  const text = (name: string): string => {
    const f = files[name];
    if (!f) throw new Error(`${name} missing from ${path}`);
    return strFromU8(f);
  };
  const sheetName = attr(/<sheet\s[^>]*>/.exec(text('xl/workbook.xml'))?.[0] ?? '', 'name') ?? '';
  const styles = text('xl/styles.xml');
  const fmts = new Map<number, string>();
  for (const m of styles.matchAll(/<numFmt\s[^>]*>/g))
    fmts.set(Number(attr(m[0], 'numFmtId')), unescape(attr(m[0], 'formatCode') ?? ''));
  const fonts = [...styles.matchAll(/<font>(.*?)<\/font>/g)].map((m) => m[1]!.includes('<b/>'));
  const builtin: Record<number, string> = { 1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00' };
  const xfs = [...(/<cellXfs[^>]*>(.*?)<\/cellXfs>/.exec(styles)?.[1] ?? '').matchAll(/<xf\s[^>]*>/g)].map(
    (m) => {
      const id = Number(attr(m[0], 'numFmtId') ?? 0);
      return {
        fmt: fmts.get(id) ?? builtin[id] ?? null,
        bold: fonts[Number(attr(m[0], 'fontId') ?? 0)] ?? false,
      };
    },
  );
  const rows = [...text('xl/worksheets/sheet1.xml').matchAll(/<row[^>]*>(.*?)<\/row>/gs)].map((row) =>
    [...row[1]!.matchAll(/<c\s([^>]*?)(?:\/>|>(.*?)<\/c>)/gs)].map((c) => {
      const head = ` ${c[1]}`;
      const body = c[2] ?? '';
      const type = attr(head, 't') ?? 'n';
      const value =
        type === 'inlineStr'
          ? unescape([...body.matchAll(/<t[^>]*>(.*?)<\/t>/gs)].map((t) => t[1]).join(''))
          : unescape(/<v>(.*?)<\/v>/.exec(body)?.[1] ?? '');
      const xf = xfs[Number(attr(head, 's') ?? 0)];
      return { ref: attr(head, 'r') ?? '', type, value, numFmt: xf?.fmt ?? null, bold: xf?.bold ?? false };
    }),
  );
  return { reader: 'fflate', sheetName, rows };
}
