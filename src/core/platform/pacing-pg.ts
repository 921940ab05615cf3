// Meta pacing shared by the team server's processes: one row per ad account (pacing.ts pacingKey) holds
// the last usage figures and the time before which no request may go out. Times are the database's,
// so processes with drifting clocks still agree; the delay itself is pacing.ts's rule.
import type { PgPool } from '../store/pg/connect';
import { nextRequestDelayMs, type SharedPacing, type UsageReading } from './pacing';

export class PgPacing implements SharedPacing {
  constructor(private readonly pool: PgPool) {}

  /** As Pacer.observe: the latest utilisation wins, a throttle only ever lengthens. */
  async record(accountKey: string, reading: UsageReading): Promise<void> {
    await this.pool.query(
      `INSERT INTO ad_account_pacing (account_key, usage_percent, access_tier, blocked_until, recorded_at)
       VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond', now())
       ON CONFLICT (account_key) DO UPDATE SET
         usage_percent = EXCLUDED.usage_percent,
         access_tier = COALESCE(EXCLUDED.access_tier, ad_account_pacing.access_tier),
         blocked_until = GREATEST(ad_account_pacing.blocked_until, EXCLUDED.blocked_until),
         recorded_at = EXCLUDED.recorded_at`,
      [accountKey, reading.maxPercent, reading.accessTier ?? null, Math.max(0, reading.regainAccessMs)],
    );
  }

  async waitMs(accountKey: string): Promise<number> {
    const { rows } = await this.pool.query<{ usage_percent: number; blocked_ms: number }>(
      `SELECT usage_percent,
              (EXTRACT(EPOCH FROM blocked_until - now()) * 1000)::double precision AS blocked_ms
       FROM ad_account_pacing WHERE account_key = $1`,
      [accountKey],
    );
    const row = rows[0];
    return row ? Math.ceil(nextRequestDelayMs(row.usage_percent, row.blocked_ms)) : 0;
  }

  /** The access tier Meta last reported for this account (development_access has far smaller budgets). */
  async accessTier(accountKey: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ access_tier: string | null }>(
      'SELECT access_tier FROM ad_account_pacing WHERE account_key = $1',
      [accountKey],
    );
    return rows[0]?.access_tier ?? null;
  }
}
