// PDF checks from npm alone (MuPDF's WebAssembly build): page count, text, fonts, images and page
// rendering to PNG. The same checks the report tests once made with poppler's command-line tools,
// so they run on a machine with nothing but Node and npm.
import * as mupdf from 'mupdf';

export interface PdfFont {
  /** BaseFont without the subset tag (ABCDEF+NotoSans-Regular → NotoSans-Regular). */
  name: string;
  /** Type0 (composite, e.g. CID TrueType), TrueType, Type1… */
  type: string;
  /** The CID font's subtype for a composite font (CIDFontType2 = CID TrueType). */
  descendantType: string | null;
  encoding: string | null;
  embedded: boolean;
  subset: boolean;
}

export interface PdfImage {
  width: number;
  height: number;
}

function open(pdf: Uint8Array): mupdf.PDFDocument {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  const asPdf = doc.asPDF();
  if (!asPdf) throw new Error('not a PDF document');
  return asPdf;
}

function withDoc<T>(pdf: Uint8Array, use: (doc: mupdf.PDFDocument) => T): T {
  const doc = open(pdf);
  try {
    return use(doc);
  } finally {
    doc.destroy();
  }
}

export function pdfPages(pdf: Uint8Array): number {
  return withDoc(pdf, (doc) => doc.countPages());
}

/** The text of one page (1-based), or of every page joined by form feeds. */
export function pdfText(pdf: Uint8Array, page?: number): string {
  return withDoc(pdf, (doc) => {
    const pages = page === undefined ? [...Array(doc.countPages()).keys()] : [page - 1];
    return pages
      .map((index) => {
        const loaded = doc.loadPage(index);
        try {
          return loaded.toStructuredText('preserve-whitespace').asText();
        } finally {
          loaded.destroy();
        }
      })
      .join('\f');
  });
}

function resourcesOf(doc: mupdf.PDFDocument, kind: 'Font' | 'XObject'): mupdf.PDFObject[] {
  const found: mupdf.PDFObject[] = [];
  for (let index = 0; index < doc.countPages(); index += 1) {
    const dict = doc.loadPage(index).getObject().getInheritable('Resources').get(kind);
    if (dict.isDictionary()) dict.forEach((value) => found.push(value.resolve()));
  }
  return found;
}

const nameOf = (obj: mupdf.PDFObject): string | null => (obj.isName() ? obj.asName() : null);

function hasFontFile(descriptor: mupdf.PDFObject): boolean {
  return ['FontFile', 'FontFile2', 'FontFile3'].some((key) => !descriptor.get(key).isNull());
}

/** Fonts used by any page, once each. */
export function pdfFonts(pdf: Uint8Array): PdfFont[] {
  return withDoc(pdf, (doc) => {
    const fonts = new Map<string, PdfFont>();
    for (const font of resourcesOf(doc, 'Font')) {
      const base = nameOf(font.get('BaseFont')) ?? '';
      const descendant = font.get('DescendantFonts').get(0).resolve();
      const descriptor = (descendant.isNull() ? font : descendant).get('FontDescriptor').resolve();
      fonts.set(base, {
        name: base.replace(/^[A-Z]{6}\+/, ''),
        type: nameOf(font.get('Subtype')) ?? '',
        descendantType: descendant.isNull() ? null : nameOf(descendant.get('Subtype')),
        encoding: nameOf(font.get('Encoding')),
        embedded: !descriptor.isNull() && hasFontFile(descriptor),
        subset: /^[A-Z]{6}\+/.test(base),
      });
    }
    return [...fonts.values()];
  });
}

/** Images drawn by any page (image XObjects), with their pixel size. */
export function pdfImages(pdf: Uint8Array): PdfImage[] {
  return withDoc(pdf, (doc) =>
    resourcesOf(doc, 'XObject')
      .filter((obj) => nameOf(obj.get('Subtype')) === 'Image')
      .map((obj) => ({ width: obj.get('Width').asNumber(), height: obj.get('Height').asNumber() })),
  );
}

/** One page (1-based) rendered to PNG bytes at `dpi`. */
export function pdfPagePng(pdf: Uint8Array, page: number, dpi = 72): Uint8Array {
  return withDoc(pdf, (doc) => {
    const loaded = doc.loadPage(page - 1);
    const pixmap = loaded.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, false);
    try {
      return pixmap.asPNG();
    } finally {
      pixmap.destroy();
      loaded.destroy();
    }
  });
}

/** The share of pixels that are not near-white on a rendered page: a blank page is about 0. */
export function inkCoverage(pdf: Uint8Array, page: number, dpi = 36): number {
  return withDoc(pdf, (doc) => {
    const loaded = doc.loadPage(page - 1);
    const pixmap = loaded.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, false);
    try {
      const pixels = pixmap.getPixels();
      let ink = 0;
      for (let i = 0; i < pixels.length; i += 3) {
        if ((pixels[i] ?? 255) < 200 || (pixels[i + 1] ?? 255) < 200 || (pixels[i + 2] ?? 255) < 200)
          ink += 1;
      }
      return ink / (pixels.length / 3);
    } finally {
      pixmap.destroy();
      loaded.destroy();
    }
  });
}

export interface PdfGlyph {
  /** The font's name without the subset tag. */
  font: string;
  /** Glyph id in the embedded font: 0 is .notdef, the "missing glyph" box. */
  glyph: number;
  /** The Unicode value the PDF maps it to; -1 or 0xFFFD when it maps to none (e.g. Arabic dot marks). */
  unicode: number;
}

/** Every glyph every page draws, as MuPDF's renderer sees it. */
export function pdfGlyphs(pdf: Uint8Array): PdfGlyph[] {
  return withDoc(pdf, (doc) => {
    const glyphs: PdfGlyph[] = [];
    const device = new mupdf.Device({
      fillText: (text) =>
        text.walk({
          showGlyph: (font, _trm, glyph, unicode) => {
            glyphs.push({ font: font.getName().replace(/^[A-Z]{6}\+/, ''), glyph, unicode });
          },
        }),
    });
    for (let index = 0; index < doc.countPages(); index += 1) {
      const page = doc.loadPage(index);
      try {
        page.run(device, mupdf.Matrix.identity);
      } finally {
        page.destroy();
      }
    }
    device.close();
    return glyphs;
  });
}

/**
 * How far down a page its content reaches, as a share of the space between the running header and
 * footer (0 = nothing below the header, 1 = down to the footer). Header and footer text is left out.
 */
export function pdfPageFill(pdf: Uint8Array, page: number): number {
  return withDoc(pdf, (doc) => {
    const loaded = doc.loadPage(page - 1);
    try {
      const [, , , height] = loaded.getBounds();
      const json = JSON.parse(loaded.toStructuredText('preserve-whitespace').asJSON()) as {
        blocks: Array<{ bbox: { y: number; h: number } }>;
      };
      const top = 45;
      const bottom = height - 40;
      const reach = json.blocks
        .map((b) => b.bbox.y + b.bbox.h)
        .filter((y) => y > top && y < bottom)
        .reduce((max, y) => Math.max(max, y), top);
      return (reach - top) / (bottom - top);
    } finally {
      loaded.destroy();
    }
  });
}
