// The report's fixed text by locale. To add a language: a catalogue file typed `Messages` (see en.ts),
// its code in REPORT_LOCALES (shared/api/reports.ts) and here.
import type { ReportLocale } from '../api/reports';
import { en, type MessageKey, type Messages } from './en';
import { ja } from './ja';

export type { MessageKey, Messages };

const CATALOGUES: Record<ReportLocale, Messages> = { en, ja };

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

/** The phrase for `key` in `locale`, with its `{placeholders}` filled in. */
export function translator(locale: ReportLocale): Translate {
  const messages = CATALOGUES[locale];
  return (key, values = {}) =>
    messages[key].replace(/\{(\w+)\}/g, (whole, name: string) =>
      name in values ? String(values[name]) : whole,
    );
}
