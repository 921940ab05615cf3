// Colours and type sizes of the PDF. Accents follow the report's primary colour (white-label or AdLens).
import type { RiskLevel } from '../../../shared/api/diagnostics';

export const INK = '#1F2937';
export const MUTED = '#6B7280';
export const RULE = '#E5E7EB';
export const ZEBRA = '#F9FAFB';
export const GOOD = '#15803D';
export const BAD = '#B91C1C';

export const RISK_COLOURS: Record<RiskLevel, string> = {
  LOW: '#15803D',
  MEDIUM: '#B45309',
  HIGH: '#DC2626',
  CRITICAL: '#7F1D1D',
};

/** Mixes a #RRGGBB colour with white: amount 0 = the colour, 1 = white. */
export function tint(hex: string, amount: number): string {
  const channels = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const mixed = channels.map((c) => Math.round(c + (255 - c) * amount));
  return `#${mixed.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** Dark enough for white text on it? (relative luminance, WCAG formula) */
export function isDark(hex: string): boolean {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0) < 0.4;
}

export const PAGE_MARGIN = 40;
/** A4 width in points minus both margins. */
export const CONTENT_WIDTH = 595.28 - 2 * PAGE_MARGIN;
