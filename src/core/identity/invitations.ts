// Invitations: the only way a user joins a workspace (no public sign-up). A one-time link valid 7 days;
// the token is stored hashed, so the link is shown once, when it is created.
import { createHash } from 'node:crypto';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import { newId, randomBase62 } from '../ids';
import { readSetting, writeSetting } from '../settings/store';
import type { Sql } from '../store/sql';

export const INVITATION_TTL_DAYS = 7;
/** The settings row where the running /v1 server records its base URL (http://127.0.0.1:PORT). */
export const SERVER_URL_SETTING = 'server_url';
/** Used when no server has run yet in this data directory; the default port of `serve`. */
export const FALLBACK_SERVER_URL = 'http://127.0.0.1:4417';

export interface Invitation {
  id: string;
  workspaceId: string;
  email: string;
  createdBy: string | null;
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
  userId: string | null;
}

interface InvitationRow {
  id: string;
  workspace_id: string;
  email: string;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  user_id: string | null;
}

const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  workspaceId: row.workspace_id,
  email: row.email,
  createdBy: row.created_by,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  acceptedAt: row.accepted_at,
  userId: row.user_id,
});

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function serverBaseUrl(sql: Sql): Promise<string> {
  return (await readSetting(sql, SERVER_URL_SETTING)) ?? FALLBACK_SERVER_URL;
}

export async function recordServerUrl(sql: Sql, url: string): Promise<void> {
  await writeSetting(sql, SERVER_URL_SETTING, url);
}

export async function createInvitation(
  sql: Sql,
  clock: Clock,
  input: { workspaceId: string; email: string; createdBy?: string | null; baseUrl?: string },
): Promise<{ invitation: Invitation; token: string; url: string }> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new AppError('invalid_request', `"${input.email}" is not an email address`);
  if (!(await sql.get(`SELECT id FROM workspaces WHERE id = ?`, [input.workspaceId]))) {
    throw new AppError('not_found', `workspace ${input.workspaceId} does not exist`);
  }
  const member = await sql.get(`SELECT id FROM users WHERE workspace_id = ? AND lower(email) = ?`, [
    input.workspaceId,
    email,
  ]);
  if (member)
    throw new AppError('conflict', `${email} is already a member of workspace ${input.workspaceId}`);
  const token = randomBase62(40);
  const now = clock.now();
  const expires = new Date(now.getTime() + INVITATION_TTL_DAYS * 86_400_000);
  const id = newId('inv');
  await sql.run(
    `INSERT INTO invitations (id, workspace_id, email, token_hash, created_by, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      input.workspaceId,
      email,
      hashInvitationToken(token),
      input.createdBy ?? null,
      now.toISOString(),
      expires.toISOString(),
    ],
  );
  const base = (input.baseUrl ?? (await serverBaseUrl(sql))).replace(/\/+$/, '');
  const invitation = (await getInvitation(sql, id)) as Invitation;
  return { invitation, token, url: `${base}/invite/${token}` };
}

export async function getInvitation(sql: Sql, id: string): Promise<Invitation | undefined> {
  const row = (await sql.get(`SELECT * FROM invitations WHERE id = ?`, [id])) as InvitationRow | undefined;
  return row ? toInvitation(row) : undefined;
}

/**
 * The invitation a link's token opens, if it can still be used: unknown, used and expired links all
 * fail with not_found (a link never tells which).
 */
export async function findOpenInvitation(sql: Sql, clock: Clock, token: string): Promise<Invitation> {
  const row = (await sql.get(`SELECT * FROM invitations WHERE token_hash = ?`, [
    hashInvitationToken(token),
  ])) as InvitationRow | undefined;
  if (!row || row.accepted_at || Date.parse(row.expires_at) <= clock.now().getTime()) {
    throw new AppError('not_found', 'This invitation link is unknown, already used or expired.');
  }
  return toInvitation(row);
}

/** Marks the invitation used by `userId` (created by the caller); only the first acceptance counts. */
export async function markInvitationAccepted(
  sql: Sql,
  clock: Clock,
  id: string,
  userId: string,
): Promise<void> {
  const result = await sql.run(
    `UPDATE invitations SET accepted_at = ?, user_id = ? WHERE id = ? AND accepted_at IS NULL`,
    [clock.now().toISOString(), userId, id],
  );
  if (result.changes === 0) throw new AppError('not_found', 'This invitation link was already used.');
}

export async function listInvitations(sql: Sql, workspaceId: string): Promise<Invitation[]> {
  const rows = (await sql.all(`SELECT * FROM invitations WHERE workspace_id = ? ORDER BY created_at, id`, [
    workspaceId,
  ])) as InvitationRow[];
  return rows.map(toInvitation);
}
