// The zod schema of a screen's date range (kept apart from ./date-ranges so the renderer's bundle
// can use the rule without zod).
import { z } from 'zod';
import { COMPARE_MODES, DATE_PRESETS, type DateRangeSpec } from './date-ranges';

const isoDate = z.iso.date();

/** What a screen asks for: a preset or custom dates, and what to compare with. */
export const DateRangeSpecSchema = z
  .object({
    preset: z.enum([...DATE_PRESETS, 'custom']),
    from: isoDate.optional(),
    to: isoDate.optional(),
    compare: z.enum(COMPARE_MODES).default('none'),
  })
  .strict()
  .refine((r) => r.preset !== 'custom' || (r.from !== undefined && r.to !== undefined), {
    message: 'a custom range needs from and to',
  })
  .refine((r) => r.from === undefined || r.to === undefined || r.from <= r.to, {
    message: 'from is after to',
  });

// The schema's output is exactly the rule's input.
export type DateRangeSpecOutput = z.output<typeof DateRangeSpecSchema> & DateRangeSpec;
