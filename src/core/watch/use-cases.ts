// Watching, as the analyst sets and reads it: each account's sync schedule (when it synced, when it
// next will, why it waits) and the sync interval per workspace or per account (15 minutes to 24 hours).
import { SetSyncIntervalSchema, type SetSyncInterval, type SyncSchedule } from '../../shared/api/watch';
import type { AppServices } from '../app-services';
import { AppError } from '../errors';
import { resolveAccount, visibleAccounts, type RequestContext } from '../identity/access';
import { writeSetting } from '../settings/store';
import { nextIncremental, nextNightly, nextScheduledSync } from './slots';
import {
  intervalFor,
  intervalSettingKey,
  saveSchedule,
  scheduleOf,
  workspaceInterval,
  type IntervalSource,
} from './store';

export function watchUseCases(services: AppServices) {
  const { core } = services;
  const { sql, clock } = core;

  async function scheduleView(
    accountId: string,
    workspaceId: string,
    active: boolean,
  ): Promise<SyncSchedule> {
    const row = await scheduleOf(sql, accountId);
    const interval = intervalFor(await workspaceInterval(sql, workspaceId), row);
    const next = row && active ? nextScheduledSync(row) : null;
    return {
      accountId,
      intervalMinutes: interval.minutes,
      intervalSource: interval.source as IntervalSource,
      nextSyncAt: next,
      nextFullSyncAt: row && active ? row.next_full_at : null,
      backoffUntil: row?.backoff_until ?? null,
      lastFailure: row?.last_reason ?? null,
    };
  }

  return {
    async schedule(ctx: RequestContext, accountIdText: string): Promise<SyncSchedule> {
      const account = await resolveAccount(sql, ctx, accountIdText);
      return await scheduleView(account.id, ctx.workspaceId, account.connectionStatus === 'active');
    },

    async schedules(ctx: RequestContext): Promise<SyncSchedule[]> {
      return Promise.all(
        (await visibleAccounts(sql, ctx)).map((a) =>
          scheduleView(a.id, ctx.workspaceId, a.connectionStatus === 'active'),
        ),
      );
    },

    /** Sets the interval of one account or of the workspace; the next slots follow at once. */
    async setInterval(ctx: RequestContext, input: SetSyncInterval): Promise<SyncSchedule[]> {
      const parsed = SetSyncIntervalSchema.safeParse(input);
      if (!parsed.success) {
        throw new AppError('invalid_request', parsed.error.issues.map((i) => i.message).join('; '));
      }
      const { accountId, minutes } = parsed.data;
      const now = clock.now();
      const targets = accountId
        ? [await resolveAccount(sql, ctx, accountId)]
        : await visibleAccounts(sql, ctx);
      await sql.transaction(async (tx) => {
        if (!accountId)
          await writeSetting(
            tx,
            intervalSettingKey(ctx.workspaceId),
            minutes === null ? null : String(minutes),
          );
        const workspaceMinutes = await workspaceInterval(tx, ctx.workspaceId);
        for (const account of targets) {
          const row = await scheduleOf(tx, account.id);
          const own = accountId ? minutes : (row?.interval_minutes ?? null);
          const interval = own ?? intervalFor(workspaceMinutes, null).minutes;
          await saveSchedule(tx, {
            account_id: account.id,
            interval_minutes: own,
            next_incremental_at: nextIncremental(account.id, interval, now).toISOString(),
            next_full_at: row?.next_full_at ?? nextNightly(account.timezone, now).toISOString(),
            failures: row?.failures ?? 0,
            backoff_until: row?.backoff_until ?? null,
            last_reason: row?.last_reason ?? null,
          });
        }
      });
      return Promise.all(
        targets.map((a) => scheduleView(a.id, ctx.workspaceId, a.connectionStatus === 'active')),
      );
    },
  };
}

export type WatchUseCases = ReturnType<typeof watchUseCases>;
