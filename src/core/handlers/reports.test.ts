// Recurring reports through the handler map, on the real App (reports rendered inline) and a seeded store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReportFixture } from '../../test-support/reports-fixtures';
import { manualClock } from '../../test-support/reports-harness';
import type { Page, ReportScheduleView, ReportView } from '../../shared/ipc/types';
import { seededHandlerWorld, type HandlerWorld } from '../../test-support/handler-world';

let world: Awaited<ReturnType<typeof seededHandlerWorld>>;
let clock: ReturnType<typeof manualClock>;
let fixture: ReportFixture;
let ok: HandlerWorld['ok'];
let call: HandlerWorld['call'];

beforeEach(async () => {
  clock = manualClock('2026-04-01T09:00:00.000Z'); // a Wednesday
  world = await seededHandlerWorld('adlens-schedules-', { campaigns: 3, clock });
  ({ fixture, ok, call } = world);
});

afterEach(async () => world.close());

describe('report schedules', () => {
  it('creates a weekly schedule whose next run waits as a pending report with its due date', async () => {
    const schedule = await ok<ReportScheduleView>('reports.schedule', {
      accountId: fixture.accountId,
      title: 'Client weekly',
      cadence: 'weekly',
      format: 'markdown',
      campaignIds: fixture.campaignIds.slice(0, 2),
    });
    expect(schedule).toMatchObject({
      accountId: fixture.accountId,
      accountName: 'Boulangerie Électrique — Москва',
      cadence: 'weekly',
      format: 'markdown',
      campaignIds: fixture.campaignIds.slice(0, 2),
      nextRunAt: '2026-04-06T06:00:00.000Z',
      cancelledAt: null,
    });
    const pending = await ok<Page<ReportView>>('reports.list', { status: 'pending' });
    expect(pending.items).toHaveLength(1);
    expect(pending.items[0]).toMatchObject({
      title: 'Client weekly',
      scheduleId: schedule.id,
      dueAt: '2026-04-06T06:00:00.000Z',
      dateRange: { from: '2026-03-30', to: '2026-04-05' },
    });
    expect(await ok<ReportScheduleView[]>('reports.schedules', {})).toEqual([schedule]);
  });

  it('runs when due and queues the next run; a monthly one is due on the 1st', async () => {
    const weekly = await ok<ReportScheduleView>('reports.schedule', {
      accountId: fixture.accountId,
      title: 'Weekly',
      cadence: 'weekly',
      format: 'json',
    });
    const monthly = await ok<ReportScheduleView>('reports.schedule', {
      accountId: fixture.accountId,
      title: 'Monthly',
      cadence: 'monthly',
    });
    expect(monthly.nextRunAt).toBe('2026-05-01T06:00:00.000Z');
    expect(monthly.format).toBe('pdf');
    clock.set('2026-04-06T06:00:01.000Z');
    expect(await world.app.reports.runDue()).toBe(1);
    await world.app.reports.whenIdle();
    const reports = await ok<Page<ReportView>>('reports.list', {});
    const weeklyRuns = reports.items.filter((r) => r.scheduleId === weekly.id);
    expect(weeklyRuns.map((r) => [r.status, r.dueAt])).toEqual(
      expect.arrayContaining([
        ['completed', '2026-04-06T06:00:00.000Z'],
        ['pending', '2026-04-13T06:00:00.000Z'],
      ]),
    );
    const listed = await ok<ReportScheduleView[]>('reports.schedules', {});
    expect(listed.find((s) => s.id === weekly.id)?.nextRunAt).toBe('2026-04-13T06:00:00.000Z');
  });

  it('cancels a schedule: its pending report goes, it leaves the list unless cancelled ones are asked for', async () => {
    const schedule = await ok<ReportScheduleView>('reports.schedule', {
      accountId: fixture.accountId,
      title: 'To cancel',
      cadence: 'monthly',
    });
    const cancelled = await ok<ReportScheduleView>('reports.unschedule', { id: schedule.id });
    expect(cancelled.cancelledAt).toBe('2026-04-01T09:00:00.000Z');
    expect((await ok<Page<ReportView>>('reports.list', { status: 'pending' })).items).toEqual([]);
    expect(await ok<ReportScheduleView[]>('reports.schedules', {})).toEqual([]);
    expect(await ok<ReportScheduleView[]>('reports.schedules', { includeCancelled: true })).toEqual([
      cancelled,
    ]);
  });

  it('refuses unknown schedules, foreign campaigns and bad cadences as values', async () => {
    expect(await call('reports.unschedule', { id: 'sched_AAAAAAAAAAAAAAAA' })).toMatchObject({
      ok: false,
      error: { type: 'not_found' },
    });
    expect(
      await call('reports.schedule', {
        accountId: fixture.accountId,
        title: 'Foreign',
        cadence: 'weekly',
        campaignIds: [fixture.other.campaignId],
      }),
    ).toMatchObject({ ok: false, error: { type: 'not_found' } });
    expect(
      await call('reports.schedule', {
        accountId: fixture.accountId,
        title: 'Daily',
        cadence: 'daily',
      }),
    ).toMatchObject({ ok: false, error: { type: 'invalid_request', message: /cadence/ } });
    expect(
      await call('reports.schedule', {
        accountId: fixture.other.accountId,
        title: 'Other workspace',
        cadence: 'weekly',
      }),
    ).toMatchObject({ ok: false, error: { type: 'permission_error' } });
  });
});
