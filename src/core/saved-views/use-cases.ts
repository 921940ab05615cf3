// Saved views of the campaigns table: shared by the workspace, saved by name (saving under an
// existing name replaces it), validated by the shared schema both ways so a stored view that an
// older or newer build wrote cannot break the screen.
import {
  SavedViewDefinitionSchema,
  type SavedView,
  type SavedViewScreen,
  type SaveViewInput,
} from '../../shared/api/saved-views';
import type { AppServices } from '../app-services';
import { AppError } from '../errors';
import type { RequestContext } from '../identity/access';
import { newId } from '../ids';
import { deleteView, upsertView, viewsOf, type SavedViewRow } from './store';

/** Enough for every client's set-ups; beyond it the list stops being a shortcut. */
export const MAX_VIEWS_PER_SCREEN = 100;

function toView(row: SavedViewRow): SavedView | null {
  let raw: unknown;
  try {
    raw = JSON.parse(row.definition);
  } catch {
    return null;
  }
  const parsed = SavedViewDefinitionSchema.safeParse(raw);
  if (!parsed.success) return null;
  return {
    id: row.id,
    screen: row.screen as SavedViewScreen,
    name: row.name,
    definition: parsed.data,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function savedViewUseCases(services: AppServices) {
  const { sql, clock } = services.core;
  return {
    async list(ctx: RequestContext, screen: SavedViewScreen): Promise<SavedView[]> {
      return (await viewsOf(sql, ctx.workspaceId, screen))
        .map(toView)
        .filter((v): v is SavedView => v !== null);
    },

    async save(ctx: RequestContext, input: SaveViewInput): Promise<SavedView> {
      // One transaction holding the screen: two analysts saving at once cannot take it past its limit.
      const row = await sql.transaction(async (tx) => {
        await tx.lock(`saved-views:${ctx.workspaceId}:${input.screen}`);
        const existing = await viewsOf(tx, ctx.workspaceId, input.screen);
        if (existing.length >= MAX_VIEWS_PER_SCREEN && !existing.some((v) => v.name === input.name)) {
          throw new AppError(
            'invalid_request',
            `A screen keeps at most ${MAX_VIEWS_PER_SCREEN} saved views; delete one first.`,
          );
        }
        return upsertView(tx, {
          id: newId('view'),
          workspaceId: ctx.workspaceId,
          screen: input.screen,
          name: input.name,
          definition: JSON.stringify(input.definition),
          userId: ctx.userId,
          at: clock.now().toISOString(),
        });
      });
      return toView(row) as SavedView;
    },

    async remove(ctx: RequestContext, id: string): Promise<{ id: string }> {
      if (!(await deleteView(sql, ctx.workspaceId, id)))
        throw new AppError('not_found', `Saved view ${id} was not found.`);
      return { id };
    },
  };
}

export type SavedViewUseCases = ReturnType<typeof savedViewUseCases>;
