// Authentication rules 1-7 of the spec: x-api-key with a live or test prefix, hashed lookup, revoked
// and expired keys, and the plan check. The result is the request context every service receives.
import type { Clock } from '../clock';
import { AppError } from '../errors';
import { findApiKeyWithPlan, isWellFormedApiKey, touchApiKey, type ApiKeyInfo } from '../identity/api-keys';
import { API_PLANS, type Plan, type RequestContext } from '../identity/access';
import type { Sql } from '../store/sql';
import { limitsFor, type Limits } from './rate-limit';

export interface Authenticated {
  ctx: RequestContext;
  key: ApiKeyInfo;
  limits: Limits;
}

const TOUCH_INTERVAL_MS = 60_000;
const MAX_KNOWN_KEYS = 1000;

export class Authenticator {
  /** last_used_at is written at most once a minute per key, to keep reads free of writes. */
  private readonly touched = new Map<string, number>();
  /**
   * Keys already looked up, valid while the store version is unchanged: a revocation, a new limit or a
   * plan change moves it (solo: any write to the store) and sends the next request to the database. A
   * team server has no store version: nothing is kept, and every request reads its key.
   */
  private readonly known = new Map<string, { version: string; key: ApiKeyInfo; plan: Plan }>();

  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
    private readonly storeVersion: (() => string) | null,
  ) {}

  async authenticate(header: string | string[] | undefined): Promise<Authenticated> {
    if (header === undefined || header === '') {
      throw new AppError('authentication_error', 'Missing API key: send it in the x-api-key header.');
    }
    const secret = Array.isArray(header) ? header[0] : header;
    if (Array.isArray(header) && header.length > 1) {
      throw new AppError('authentication_error', 'Send exactly one x-api-key header.');
    }
    if (!secret || !isWellFormedApiKey(secret)) {
      throw new AppError(
        'authentication_error',
        'Malformed API key: keys start with service_live_ or service_test_ followed by 32 characters.',
      );
    }
    const { key, plan } = await this.keyOf(secret);
    if (key.revokedAt) throw new AppError('key_revoked', `This API key was revoked at ${key.revokedAt}.`);
    const now = this.clock.now();
    if (key.expiresAt && Date.parse(key.expiresAt) <= now.getTime()) {
      throw new AppError('authentication_error', `This API key expired at ${key.expiresAt}.`);
    }
    if (!API_PLANS.includes(plan)) {
      throw new AppError(
        'plan_insufficient',
        `The API is available on the Agency plan; this workspace is on the ${plan} plan.`,
      );
    }
    const last = this.touched.get(key.id) ?? 0;
    if (now.getTime() - last >= TOUCH_INTERVAL_MS) {
      this.touched.set(key.id, now.getTime());
      // Best effort: a failed touch never fails the request it records.
      touchApiKey(this.sql, key.id, now.toISOString()).catch(() => this.touched.delete(key.id));
    }
    return {
      key,
      limits: limitsFor(key.limitOverrides),
      ctx: {
        workspaceId: key.workspaceId,
        plan,
        userId: key.userId,
        keyId: key.id,
        mode: key.mode,
      },
    };
  }

  /** The key and its plan: kept while the store version holds; without one (a team server), read. */
  private async keyOf(secret: string): Promise<{ key: ApiKeyInfo; plan: Plan }> {
    const version = this.storeVersion?.();
    const known = version === undefined ? undefined : this.known.get(secret);
    if (known && known.version === version) return known;
    const found = await findApiKeyWithPlan(this.sql, secret);
    if (!found) throw new AppError('authentication_error', 'Invalid API key.');
    if (version !== undefined) {
      if (this.known.size >= MAX_KNOWN_KEYS) this.known.delete(this.known.keys().next().value as string);
      this.known.set(secret, { version, ...found });
    }
    return found;
  }
}
