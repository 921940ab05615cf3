// The saved_views store on both engines: save by name (replacing keeps the ID), list per workspace
// and screen in name order, delete only within the workspace.
import { afterAll, describe, expect, it } from 'vitest';
import { engineStores, ENGINES, seedWorkspaceRows } from '../../test-support/engines';
import { deleteView, upsertView, viewsOf } from './store';

const engines = engineStores();
afterAll(() => engines.stop(), 60_000);

const view = (id: string, workspaceId: string, name: string, definition: string, at: string) => ({
  id,
  workspaceId,
  screen: 'campaigns',
  name,
  definition,
  userId: null,
  at,
});

describe.each(ENGINES)('saved views on %s', (engine) => {
  it('saves by name, lists in name order, and deletes only within its workspace', async () => {
    const { sql, close } = await engines.open(engine);
    await seedWorkspaceRows(sql, 'ws_a');
    await seedWorkspaceRows(sql, 'ws_b');
    const first = await upsertView(sql, view('view_1', 'ws_a', 'Weekly', '{"v":1}', '2026-11-28T10:00:00Z'));
    await upsertView(sql, view('view_2', 'ws_a', 'Alpha', '{}', '2026-11-28T10:00:00Z'));
    const replaced = await upsertView(
      sql,
      view('view_3', 'ws_a', 'Weekly', '{"v":2}', '2026-11-28T11:00:00Z'),
    );
    expect(replaced).toEqual({ ...first, definition: '{"v":2}', updated_at: '2026-11-28T11:00:00Z' });
    expect((await viewsOf(sql, 'ws_a', 'campaigns')).map((v) => v.name)).toEqual(['Alpha', 'Weekly']);
    expect(await viewsOf(sql, 'ws_b', 'campaigns')).toEqual([]);
    expect(await deleteView(sql, 'ws_b', 'view_1')).toBe(false);
    expect(await deleteView(sql, 'ws_a', 'view_1')).toBe(true);
    expect((await viewsOf(sql, 'ws_a', 'campaigns')).map((v) => v.id)).toEqual(['view_2']);
    await close();
  });
});
