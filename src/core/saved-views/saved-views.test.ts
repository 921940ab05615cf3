// Saved views through the handler map (what the campaigns screen calls), on a real store: saved by
// name (the same name replaces), listed per screen and workspace, removed; bad input refused.
import { afterAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../clock';
import type { HandlerResult } from '../../shared/ipc';
import { seededHandlerWorld } from '../../test-support/handler-world';
import { seedWorkspace } from '../../test-support/api-fixtures';

const world = await seededHandlerWorld('adlens-saved-views-', {
  campaigns: 1,
  clock: fixedClock('2026-03-15T10:00:00Z'),
});
afterAll(() => world.close());

const definition = {
  columns: ['name', 'resultType', 'results', 'costPerResult', 'spend'],
  sort: { key: 'costPerResult', dir: 'asc' },
  filters: { q: 'Prospecting', status: 'ACTIVE' },
  dateRange: { preset: 'custom', from: '2026-02-01', to: '2026-02-28', compare: 'same_period_last_year' },
};

describe('saved views', () => {
  it('saves, replaces by name, lists per workspace and removes', async () => {
    const saved = await world.ok<HandlerResult<'views.save'>>('views.save', {
      screen: 'campaigns',
      name: 'Leads by CPA',
      definition,
    });
    expect(saved).toMatchObject({ screen: 'campaigns', name: 'Leads by CPA', definition });
    expect(saved.id).toMatch(/^view_[0-9A-Za-z]{16}$/);
    const again = await world.ok<HandlerResult<'views.save'>>('views.save', {
      screen: 'campaigns',
      name: 'Leads by CPA',
      definition: { ...definition, columns: ['name', 'spend'] },
    });
    expect(again.id).toBe(saved.id);
    await world.ok('views.save', { screen: 'campaigns', name: 'All spend', definition });
    const listed = await world.ok<HandlerResult<'views.list'>>('views.list', { screen: 'campaigns' });
    expect(listed.map((v) => [v.name, v.definition.columns.length])).toEqual([
      ['All spend', 5],
      ['Leads by CPA', 2],
    ]);
    // Another workspace sees none of them and cannot remove them.
    const other = seedWorkspace(world.app.core.db, { plan: 'agency', name: 'Other agency' });
    const otherCtx = { ...world.ctx, workspaceId: other.workspaceId };
    const foreign = await world.dispatch(otherCtx, 'views.list', { screen: 'campaigns' });
    expect(foreign).toMatchObject({ ok: true, value: [] });
    expect(await world.dispatch(otherCtx, 'views.remove', { id: saved.id })).toMatchObject({
      ok: false,
      error: { type: 'not_found' },
    });
    await world.ok('views.remove', { id: saved.id });
    const left = await world.ok<HandlerResult<'views.list'>>('views.list', { screen: 'campaigns' });
    expect(left.map((v) => v.name)).toEqual(['All spend']);
  });

  it('refuses a view without a name, columns or a complete custom range', async () => {
    for (const bad of [
      { screen: 'campaigns', name: '  ', definition },
      { screen: 'campaigns', name: 'x', definition: { ...definition, columns: [] } },
      { screen: 'campaigns', name: 'x', definition: { ...definition, dateRange: { preset: 'custom' } } },
      { screen: 'reports', name: 'x', definition },
    ]) {
      expect(await world.call('views.save', bad)).toMatchObject({
        ok: false,
        error: { type: 'invalid_request' },
      });
    }
  });
});
