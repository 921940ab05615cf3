import { afterEach, describe, expect, it } from 'vitest';
import { ReportSchema } from '../../shared/api/reports';
import { ReportsService } from './service';
import { nextRun } from './schedule';
import { harness, manualClock, type Harness } from '../../test-support/reports-harness';

let h: Harness | undefined;
let s: ReportsService | undefined;
afterEach(async () => {
  await s?.stop();
  h?.cleanup();
  h = undefined;
  s = undefined;
});

describe('report list filters', () => {
  it('filters by campaignId, accountId, status, format and the creation period, newest first', async () => {
    const clock = manualClock('2026-04-01T09:00:00.000Z');
    h = harness({ clock });
    s = new ReportsService(h.core);
    const { accountId, campaignIds } = h.fixture;
    const range = { dateFrom: '2026-03-01', dateTo: '2026-03-31' };
    const a = await s.create(h.ctx, {
      accountId,
      title: 'A',
      format: 'json',
      campaignIds: [campaignIds[0] ?? ''],
      ...range,
    });
    clock.set('2026-04-02T09:00:00.000Z');
    const b = await s.create(h.ctx, {
      accountId,
      title: 'B',
      format: 'markdown',
      campaignIds: [campaignIds[1] ?? ''],
      ...range,
    });
    clock.set('2026-04-03T09:00:00.000Z');
    const c = await s.create(h.ctx, { accountId, title: 'C', format: 'markdown', ...range });
    await s.whenIdle();
    const all = { accountIds: [accountId], page: 1, pageSize: 20 };
    const ids = async (f: Partial<Parameters<ReportsService['list']>[1]>) =>
      (await s?.list(h!.ctx, { ...all, ...f }))?.items.map((r) => r.id);
    expect(await ids({})).toEqual([c.id, b.id, a.id]);
    for (const item of (await s.list(h.ctx, all)).items) ReportSchema.parse(item);
    expect(await ids({ campaignId: campaignIds[0] })).toEqual([c.id, a.id]);
    expect(await ids({ format: 'markdown' })).toEqual([c.id, b.id]);
    expect(await ids({ status: 'completed' })).toEqual([c.id, b.id, a.id]);
    expect(await ids({ status: 'failed' })).toEqual([]);
    expect(await ids({ accountId })).toEqual([c.id, b.id, a.id]);
    expect(await ids({ accountId: h.fixture.other.accountId })).toEqual([]);
    expect(await ids({ from: '2026-04-02' })).toEqual([c.id, b.id]);
    expect(await ids({ to: '2026-04-02' })).toEqual([b.id, a.id]);
    expect(await ids({ from: '2026-04-01T12:00:00Z', to: '2026-04-02T12:00:00Z' })).toEqual([b.id]);
    const page = await s.list(h.ctx, { ...all, page: 2, pageSize: 2 });
    expect(page.total).toBe(3);
    expect(page.items.map((r) => r.id)).toEqual([a.id]);
    // Another workspace sees nothing.
    expect((await s.list({ ...h.ctx, workspaceId: h.fixture.other.workspaceId }, all)).total).toBe(0);
  });
});

describe('recurring reports', () => {
  it('computes weekly (Monday, previous week) and monthly (1st, previous month) runs', async () => {
    expect(nextRun('weekly', new Date('2026-04-01T09:00:00Z'))).toEqual({
      dueAt: '2026-04-06T06:00:00.000Z',
      dateFrom: '2026-03-30',
      dateTo: '2026-04-05',
    });
    expect(nextRun('weekly', new Date('2026-04-06T05:00:00Z')).dueAt).toBe('2026-04-06T06:00:00.000Z');
    expect(nextRun('weekly', new Date('2026-04-06T06:00:00Z')).dueAt).toBe('2026-04-13T06:00:00.000Z');
    expect(nextRun('monthly', new Date('2026-04-01T09:00:00Z'))).toEqual({
      dueAt: '2026-05-01T06:00:00.000Z',
      dateFrom: '2026-04-01',
      dateTo: '2026-04-30',
    });
    expect(nextRun('monthly', new Date('2026-12-15T00:00:00Z')).dateFrom).toBe('2026-12-01');
    expect(nextRun('monthly', new Date('2026-12-15T00:00:00Z')).dueAt).toBe('2027-01-01T06:00:00.000Z');
  });

  it('waits as pending until due, then generates and queues the next run; cancelling removes the pending one', async () => {
    const clock = manualClock('2026-03-04T10:00:00.000Z');
    h = harness({ clock });
    s = new ReportsService(h.core);
    const schedule = await s.schedule(h.ctx, {
      accountId: h.fixture.accountId,
      title: 'Weekly',
      cadence: 'weekly',
      format: 'markdown',
    });
    expect(schedule.nextRunAt).toBe('2026-03-09T06:00:00.000Z');
    const all = { accountIds: [h.fixture.accountId], page: 1, pageSize: 20 };
    const [pending] = (await s.list(h.ctx, all)).items;
    expect(pending).toMatchObject({
      status: 'pending',
      dueAt: '2026-03-09T06:00:00.000Z',
      scheduleId: schedule.id,
    });
    expect(pending?.dateRange).toEqual({ from: '2026-03-02', to: '2026-03-08' });
    await s.resume();
    expect(await s.runDue()).toBe(0);

    clock.set('2026-03-09T06:30:00.000Z');
    expect(await s.runDue()).toBe(1);
    const done = await s.waitFor(h.ctx, pending?.id ?? '');
    expect(done.status).toBe('completed');
    expect(done.campaignIds.length).toBeGreaterThan(0);
    const items = (await s.list(h.ctx, all)).items;
    expect(items.filter((r) => r.status === 'pending').map((r) => r.dueAt)).toEqual([
      '2026-03-16T06:00:00.000Z',
    ]);
    expect((await s.listSchedules(h.ctx))[0]?.nextRunAt).toBe('2026-03-16T06:00:00.000Z');

    await s.cancelSchedule(h.ctx, schedule.id);
    expect((await s.list(h.ctx, { ...all, status: 'pending' })).total).toBe(0);
    clock.set('2026-03-16T07:00:00.000Z');
    expect(await s.runDue()).toBe(0);
    await expect(
      s.cancelSchedule({ ...h.ctx, workspaceId: h.fixture.other.workspaceId }, schedule.id),
    ).rejects.toThrow(expect.objectContaining({ type: 'not_found' }));
  });
});
