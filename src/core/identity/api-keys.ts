// API keys: `service_live_`/`service_test_` + 32 base62 characters, stored only as a SHA-256 hash and a
// display hint, shown once at creation. A key belongs to a workspace and a user (Andromeda preferences
// follow that user) and has a mode: test keys see test-mode accounts only, live keys live-mode ones.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import { newId, randomBase62 } from '../ids';
import { keptPlan, type Sql } from '../store/sql';
import type { Plan } from './workspaces';

export type KeyMode = 'live' | 'test';
export const KEY_PREFIXES: Record<KeyMode, string> = { live: 'service_live_', test: 'service_test_' };
const KEY_PATTERN = /^service_(live|test)_[0-9A-Za-z]{32}$/;

export const LimitOverrides = z.strictObject({
  reads: z.number().int().min(1).optional(),
  writes: z.number().int().min(1).optional(),
  diagnostics: z.number().int().min(1).optional(),
  reports: z.number().int().min(1).optional(),
});
export type LimitOverrides = z.infer<typeof LimitOverrides>;

export interface ApiKeyInfo {
  id: string;
  workspaceId: string;
  userId: string | null;
  name: string;
  mode: KeyMode;
  hint: string;
  limitOverrides: LimitOverrides | null;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

interface ApiKeyRow {
  id: string;
  workspace_id: string;
  user_id: string | null;
  name: string;
  mode: KeyMode;
  hint: string;
  limit_overrides: string | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** True when the text has the shape of a key (prefix and 32 base62 characters). */
export function isWellFormedApiKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

function toInfo(row: ApiKeyRow): ApiKeyInfo {
  let overrides: LimitOverrides | null = null;
  if (row.limit_overrides) {
    const parsed = LimitOverrides.safeParse(JSON.parse(row.limit_overrides));
    overrides = parsed.success ? parsed.data : null;
  }
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    userId: row.user_id,
    name: row.name,
    mode: row.mode,
    hint: row.hint,
    limitOverrides: overrides,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

export interface CreateApiKeyInput {
  workspaceId: string;
  mode?: KeyMode;
  name?: string;
  /** The key's user; default the workspace owner (or its first user). */
  userId?: string | null;
  expiresAt?: string | null;
  /** "Higher limits granted on request": per-counter limits replacing the defaults. */
  limitOverrides?: LimitOverrides | null;
}

/** Creates a key and returns it with its secret: the only time the full key exists outside the caller. */
export async function createApiKey(
  sql: Sql,
  clock: Clock,
  input: CreateApiKeyInput,
): Promise<{ key: string; apiKey: ApiKeyInfo }> {
  const workspace = await sql.get(`SELECT id FROM workspaces WHERE id = ?`, [input.workspaceId]);
  if (!workspace) throw new AppError('not_found', `workspace ${input.workspaceId} does not exist`);
  let userId = input.userId ?? null;
  if (userId) {
    const user = await sql.get(`SELECT id FROM users WHERE id = ? AND workspace_id = ?`, [
      userId,
      input.workspaceId,
    ]);
    if (!user) throw new AppError('not_found', `user ${userId} is not in workspace ${input.workspaceId}`);
  } else {
    const owner = await sql.get<{ id: string }>(
      `SELECT id FROM users WHERE workspace_id = ?
       ORDER BY CASE WHEN role = 'owner' THEN 0 ELSE 1 END, created_at, id LIMIT 1`,
      [input.workspaceId],
    );
    userId = owner?.id ?? null;
  }
  const overrides = input.limitOverrides ? LimitOverrides.parse(input.limitOverrides) : null;
  const mode = input.mode ?? 'live';
  const key = `${KEY_PREFIXES[mode]}${randomBase62(32)}`;
  const id = newId('key');
  const hint = `${KEY_PREFIXES[mode]}…${key.slice(-4)}`;
  await sql.run(
    `INSERT INTO api_keys (id, workspace_id, user_id, name, mode, key_hash, hint, limit_overrides, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      input.workspaceId,
      userId,
      input.name ?? '',
      mode,
      hashApiKey(key),
      hint,
      overrides ? JSON.stringify(overrides) : null,
      clock.now().toISOString(),
      input.expiresAt ?? null,
    ],
  );
  return { key, apiKey: (await getApiKey(sql, id)) as ApiKeyInfo };
}

export async function getApiKey(sql: Sql, id: string): Promise<ApiKeyInfo | undefined> {
  const row = await sql.get<ApiKeyRow>(`SELECT * FROM api_keys WHERE id = ?`, [id]);
  return row ? toInfo(row) : undefined;
}

export async function findApiKeyBySecret(sql: Sql, key: string): Promise<ApiKeyInfo | undefined> {
  const row = await sql.get<ApiKeyRow>(`SELECT * FROM api_keys WHERE key_hash = ?`, [hashApiKey(key)]);
  return row ? toInfo(row) : undefined;
}

/**
 * The key a request presents, with its workspace's plan: what authentication decides on, in one
 * statement (a team server reads it on every request).
 */
export async function findApiKeyWithPlan(
  sql: Sql,
  key: string,
): Promise<{ key: ApiKeyInfo; plan: Plan } | undefined> {
  const row = await sql.get<ApiKeyRow & { plan: Plan }>(
    keptPlan(
      `SELECT k.*, w.plan FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id WHERE k.key_hash = ?`,
    ),
    [hashApiKey(key)],
  );
  return row ? { key: toInfo(row), plan: row.plan } : undefined;
}

export async function listApiKeys(sql: Sql, workspaceId: string): Promise<ApiKeyInfo[]> {
  const rows = await sql.all<ApiKeyRow>(
    `SELECT * FROM api_keys WHERE workspace_id = ? ORDER BY created_at, id`,
    [workspaceId],
  );
  return rows.map(toInfo);
}

/** Revokes a key; revoking twice keeps the first revocation time. */
export async function revokeApiKey(sql: Sql, clock: Clock, id: string): Promise<ApiKeyInfo> {
  const existing = await getApiKey(sql, id);
  if (!existing) throw new AppError('not_found', `API key ${id} does not exist`);
  if (!existing.revokedAt) {
    await sql.run(`UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`, [
      clock.now().toISOString(),
      id,
    ]);
  }
  return (await getApiKey(sql, id)) as ApiKeyInfo;
}

/** Revokes every live key of a user (a disabled or removed user's scripts lose access too). */
export async function revokeKeysOfUser(sql: Sql, clock: Clock, userId: string): Promise<string[]> {
  const rows = await sql.all<{ id: string }>(
    `UPDATE api_keys SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL RETURNING id`,
    [clock.now().toISOString(), userId],
  );
  return rows.map((r) => r.id);
}

export async function setApiKeyLimits(
  sql: Sql,
  id: string,
  overrides: LimitOverrides | null,
): Promise<ApiKeyInfo> {
  const parsed = overrides ? LimitOverrides.parse(overrides) : null;
  const result = await sql.run(`UPDATE api_keys SET limit_overrides = ? WHERE id = ?`, [
    parsed ? JSON.stringify(parsed) : null,
    id,
  ]);
  if (result.changes === 0) throw new AppError('not_found', `API key ${id} does not exist`);
  return (await getApiKey(sql, id)) as ApiKeyInfo;
}

export async function touchApiKey(sql: Sql, id: string, at: string): Promise<void> {
  await sql.run(`UPDATE api_keys SET last_used_at = ? WHERE id = ?`, [at, id]);
}
