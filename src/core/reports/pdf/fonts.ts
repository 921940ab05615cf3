// Embedded Noto fonts, so a report reads the same in any script: Noto Sans (Latin with accents,
// Cyrillic, Greek) first, then per-glyph fallbacks for symbols (→ ≥ ≤), Japanese, Korean, Chinese,
// Thai, Arabic and Hebrew. The built-in Helvetica is WinAnsi-only and turns anything else into
// garbage. Files are resolved from the installed packages at run time (as in the Electron build);
// react-pdf embeds only the glyphs used, as subsets, so a fallback costs bytes only when it draws.
import { createRequire } from 'node:module';
import { Font } from '@react-pdf/renderer';

export const FONT_FAMILY = 'Noto Sans';

const require = createRequire(import.meta.url);
let registered = false;

export function fontFile(face: string): string {
  return require.resolve(`@expo-google-fonts/noto-sans/${face}/NotoSans_${face}.ttf`);
}

interface Fallback {
  family: string;
  /** The characters this font is needed for; a report without them does not load it. */
  needed: RegExp;
  regular: () => string;
  bold: () => string;
}

function expo(pkg: string, name: string, face: string): string {
  return require.resolve(`@expo-google-fonts/${pkg}/${face}/${name}_${face}.ttf`);
}

// CJK punctuation and full-width forms come with the CJK fonts.
const CJK_EXTRA = '\\u3000-\\u303F\\uFF00-\\uFFEF';
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** In fallback order: the first font that has a glyph draws it. */
const FALLBACKS: readonly Fallback[] = [
  {
    // Before the Chinese fonts when the text has kana, so Japanese kanji take Japanese forms.
    family: 'Noto Sans JP',
    needed: new RegExp(`[\\p{Script=Hiragana}\\p{Script=Katakana}${CJK_EXTRA}]`, 'u'),
    regular: () => expo('noto-sans-jp', 'NotoSansJP', '400Regular'),
    bold: () => expo('noto-sans-jp', 'NotoSansJP', '700Bold'),
  },
  {
    family: 'Noto Sans KR',
    needed: /\p{Script=Hangul}/u,
    regular: () => expo('noto-sans-kr', 'NotoSansKR', '400Regular'),
    bold: () => expo('noto-sans-kr', 'NotoSansKR', '700Bold'),
  },
  {
    family: 'Noto Sans SC',
    needed: new RegExp(`[\\p{Script=Han}${CJK_EXTRA}]`, 'u'),
    regular: () => expo('noto-sans-sc', 'NotoSansSC', '400Regular'),
    bold: () => expo('noto-sans-sc', 'NotoSansSC', '700Bold'),
  },
  {
    // Traditional characters the simplified font lacks.
    family: 'Noto Sans TC',
    needed: /\p{Script=Han}/u,
    regular: () => expo('noto-sans-tc', 'NotoSansTC', '400Regular'),
    bold: () => expo('noto-sans-tc', 'NotoSansTC', '700Bold'),
  },
  {
    family: 'Noto Sans Thai',
    needed: /\p{Script=Thai}/u,
    regular: () => expo('noto-sans-thai', 'NotoSansThai', '400Regular'),
    bold: () => expo('noto-sans-thai', 'NotoSansThai', '700Bold'),
  },
  {
    family: 'Noto Sans Arabic',
    needed: /\p{Script=Arabic}/u,
    regular: () => expo('noto-sans-arabic', 'NotoSansArabic', '400Regular'),
    bold: () => expo('noto-sans-arabic', 'NotoSansArabic', '700Bold'),
  },
  {
    family: 'Noto Sans Hebrew',
    needed: /\p{Script=Hebrew}/u,
    regular: () =>
      require.resolve('@fontsource/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-400-normal.woff'),
    bold: () => require.resolve('@fontsource/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-700-normal.woff'),
  },
  {
    // Arrows, comparison and other math symbols (evidence like "CPA 12 → 18", "≥ 3 days"). Last:
    // it also has unshaped Arabic letters (for Arabic math), which must not win over Noto Sans Arabic.
    family: 'Noto Sans Math',
    needed: /[\u2190-\u21FF\u2200-\u22FF\u27F0-\u27FF\u2900-\u297F]/u,
    regular: () => require.resolve('@fontsource/noto-sans-math/files/noto-sans-math-latin-400-normal.woff'),
    bold: () => require.resolve('@fontsource/noto-sans-math/files/noto-sans-math-latin-400-normal.woff'),
  },
];

/**
 * The font stack for a report whose text is `text`: Noto Sans, then only the fallbacks that text
 * needs. react-pdf loads every family of a stack, so a Latin report never reads the CJK files
 * (tens of megabytes).
 */
export function fontFamiliesFor(text: string): string[] {
  const kana = KANA.test(text);
  const families = [FONT_FAMILY];
  for (const fallback of FALLBACKS) {
    if (fallback.family === 'Noto Sans JP' && !kana) continue;
    if (fallback.needed.test(text)) families.push(fallback.family);
  }
  return families;
}

export function registerFonts(): void {
  if (registered) return;
  Font.register({
    family: FONT_FAMILY,
    fonts: [
      { src: fontFile('400Regular') },
      { src: fontFile('400Regular_Italic'), fontStyle: 'italic' },
      { src: fontFile('700Bold'), fontWeight: 'bold' },
    ],
  });
  for (const fallback of FALLBACKS) {
    // These families have no italic; the upright face stands in (react-pdf refuses a missing style).
    Font.register({
      family: fallback.family,
      fonts: [
        { src: fallback.regular() },
        { src: fallback.regular(), fontStyle: 'italic' },
        { src: fallback.bold(), fontWeight: 'bold' },
        { src: fallback.bold(), fontWeight: 'bold', fontStyle: 'italic' },
      ],
    });
  }
  // Campaign names and IDs must never be split with hyphens at line ends.
  Font.registerHyphenationCallback((word) => [word]);
  registered = true;
}
