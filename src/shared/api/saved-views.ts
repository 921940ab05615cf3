// Saved views: a named set-up of a screen's table (columns, sort, filters, date range), per workspace.
import { z } from 'zod';
import { DateRangeSpecSchema } from '../date-range-schema';

export const SAVED_VIEW_SCREENS = ['campaigns'] as const;
export type SavedViewScreen = (typeof SAVED_VIEW_SCREENS)[number];

export const SavedViewDefinitionSchema = z
  .object({
    /** Column keys in the order shown. */
    columns: z.array(z.string().min(1).max(40)).min(1, 'a view shows at least one column').max(60),
    sort: z.object({ key: z.string().min(1).max(40), dir: z.enum(['asc', 'desc']) }).strict(),
    /** The screen's filters (search text, status, risk, account, result type…), as text. */
    filters: z.record(z.string().max(40), z.string().max(200)),
    dateRange: DateRangeSpecSchema,
  })
  .strict();
export type SavedViewDefinition = z.output<typeof SavedViewDefinitionSchema>;

export const SaveViewSchema = z
  .object({
    screen: z.enum(SAVED_VIEW_SCREENS),
    name: z.string().trim().min(1, 'a view needs a name').max(80),
    definition: SavedViewDefinitionSchema,
  })
  .strict();
export type SaveViewInput = z.output<typeof SaveViewSchema>;

export interface SavedView {
  id: string;
  screen: SavedViewScreen;
  name: string;
  definition: SavedViewDefinition;
  createdAt: string;
  updatedAt: string;
}
