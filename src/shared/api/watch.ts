// Watching (an addition to the spec): each account's sync schedule as the app, /v1 and the CLI show it.
import { z } from 'zod';

export const MIN_SYNC_INTERVAL_MINUTES = 15;
export const MAX_SYNC_INTERVAL_MINUTES = 24 * 60;

export const SyncScheduleSchema = z.object({
  accountId: z.string(),
  intervalMinutes: z.number().int(),
  /** Whose interval is in force: the account's own, its workspace's, or the default (60 minutes). */
  intervalSource: z.enum(['account', 'workspace', 'default']),
  /** When the next scheduled sync starts (null: not scheduled yet, or the connection is not active). */
  nextSyncAt: z.string().nullable(),
  /** The next nightly full reconciliation (03:00 in the account's time zone). */
  nextFullSyncAt: z.string().nullable(),
  /** Set after failed syncs: no scheduled sync before this time. */
  backoffUntil: z.string().nullable(),
  lastFailure: z.string().nullable(),
});
export type SyncSchedule = z.infer<typeof SyncScheduleSchema>;

export const SetSyncIntervalSchema = z
  .object({
    /** One account (service or platform ID); absent: the workspace's interval. */
    accountId: z.string().min(1).optional(),
    /** Minutes; null: back to the workspace's (or the default) interval. */
    minutes: z
      .number()
      .int()
      .min(MIN_SYNC_INTERVAL_MINUTES, `the interval is at least ${MIN_SYNC_INTERVAL_MINUTES} minutes`)
      .max(
        MAX_SYNC_INTERVAL_MINUTES,
        `the interval is at most ${MAX_SYNC_INTERVAL_MINUTES} minutes (24 hours)`,
      )
      .nullable(),
  })
  .strict();
export type SetSyncInterval = z.input<typeof SetSyncIntervalSchema>;
