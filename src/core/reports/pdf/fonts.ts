// Embedded Noto Sans (Latin with accents, Cyrillic, Greek): the built-in Helvetica is WinAnsi-only
// and turns Cyrillic campaign names into garbage. Resolved from the installed package at run time.
import { createRequire } from 'node:module';
import { Font } from '@react-pdf/renderer';

export const FONT_FAMILY = 'Noto Sans';

const require = createRequire(import.meta.url);
let registered = false;

export function fontFile(face: string): string {
  return require.resolve(`@expo-google-fonts/noto-sans/${face}/NotoSans_${face}.ttf`);
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
  // Campaign names and IDs must never be split with hyphens at line ends.
  Font.registerHyphenationCallback((word) => [word]);
  registered = true;
}
