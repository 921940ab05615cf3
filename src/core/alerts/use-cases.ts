// Alerts as the analyst sets them: destinations (a webhook with its signing secret shown once, or an
// e-mail address) with their rules (minimum risk, types, one account or all), a test delivery, the
// workspace's SMTP server, quiet hours and muted accounts, and each user's morning digest.
import {
  ALERT_TYPES,
  AddAlertDestinationSchema,
  AlertPreferencesSchema,
  DigestSettingsSchema,
  SmtpSettingsSchema,
  SmtpTestSchema,
  type AddAlertDestination,
  type AlertDestinationCreated,
  type AlertDestinationView,
  type AlertPreferences,
  type AlertTestResult,
  type AlertType,
  type DigestSettings,
  type DigestView,
  type SmtpSettings,
  type SmtpTestResult,
  type SmtpView,
} from '../../shared/api/alerts';
import { sendWorkspaceMail } from '../mail/smtp';
import type { z } from 'zod';
import type { AppServices } from '../app-services';
import { AppError } from '../errors';
import { resolveAccount, type RequestContext } from '../identity/access';
import { getUser } from '../identity/users';
import { newId, randomBase62 } from '../ids';
import { readSetting, writeSetting } from '../settings/store';
import { prefsKey, prefsOf, smtpKey, type StoredSmtp } from './prefs';
import {
  deleteDestination,
  deleteDigest,
  destinationRow,
  destinationsOf,
  digestOf,
  insertDestination,
  lastDeliveryOf,
  saveDigest,
  type DestinationRow,
} from './store';

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success)
    throw new AppError('invalid_request', parsed.error.issues.map((i) => i.message).join('; '));
  return parsed.data;
}

export function alertUseCases(services: AppServices) {
  const { core, alerts } = services;
  const { sql, clock, tokenCipher } = core;

  async function view(row: DestinationRow): Promise<AlertDestinationView> {
    const last = await lastDeliveryOf(sql, row.id);
    return {
      id: row.id,
      kind: row.kind,
      target: row.target,
      accountId: row.account_id,
      minRisk: row.min_risk,
      format: row.format,
      types: JSON.parse(row.types) as AlertType[],
      createdAt: row.created_at,
      lastDelivery: last
        ? {
            at: last.delivered_at ?? last.created_at,
            status: last.status,
            httpStatus: last.last_status,
          }
        : null,
    };
  }

  async function own(ctx: RequestContext, id: string): Promise<DestinationRow> {
    const row = await destinationRow(sql, id);
    if (!row || row.workspace_id !== ctx.workspaceId) {
      throw new AppError('not_found', `Alert destination ${id} was not found.`);
    }
    return row;
  }

  /** Setting alerts up is the workspace's business: owners and admins (or the CLI's administrator). */
  async function requireAdmin(ctx: RequestContext): Promise<void> {
    if (!ctx.userId) return;
    const user = await getUser(sql, ctx.userId);
    if (user && user.role === 'member') {
      throw new AppError('permission_error', 'Only owners and admins set alerts up.');
    }
  }

  return {
    async list(ctx: RequestContext): Promise<AlertDestinationView[]> {
      return Promise.all((await destinationsOf(sql, ctx.workspaceId)).map(view));
    },

    /** Adds a destination; a webhook's signing secret is in the answer this once. */
    async add(ctx: RequestContext, input: AddAlertDestination): Promise<AlertDestinationCreated> {
      await requireAdmin(ctx);
      const data = parse(AddAlertDestinationSchema, input);
      const account = data.accountId ? await resolveAccount(sql, ctx, data.accountId) : null;
      const secret = data.kind === 'webhook' ? `whsec_${randomBase62(32)}` : null;
      const row: DestinationRow = {
        id: newId('dest'),
        workspace_id: ctx.workspaceId,
        account_id: account?.id ?? null,
        kind: data.kind,
        target: data.target,
        format: data.slack ? 'slack' : 'json',
        min_risk: data.minRisk ?? 'HIGH',
        types: JSON.stringify(data.types ?? ALERT_TYPES),
        secret_sealed: secret ? tokenCipher.encrypt(secret) : null,
        created_at: clock.now().toISOString(),
      };
      await insertDestination(sql, row);
      return { ...(await view(row)), secret };
    },

    async remove(ctx: RequestContext, id: string): Promise<AlertDestinationView> {
      await requireAdmin(ctx);
      const row = await own(ctx, id);
      const shown = await view(row);
      await deleteDestination(sql, row.id);
      return shown;
    },

    /** Sends a signed test event now (no outbox) and reports the answer. */
    async test(ctx: RequestContext, id: string): Promise<AlertTestResult> {
      return alerts.test(await own(ctx, id));
    },

    /**
     * The workspace's SMTP server (the password is sealed; never shown again). Without a password the
     * one already sealed is kept for the same user (a form cannot show it back to resend it).
     */
    async setSmtp(ctx: RequestContext, input: SmtpSettings): Promise<SmtpView | null> {
      await requireAdmin(ctx);
      const data = parse(SmtpSettingsSchema, input);
      const previous = await readSetting(sql, smtpKey(ctx.workspaceId));
      const current = previous ? (JSON.parse(previous) as StoredSmtp) : null;
      const user = data.user ?? null;
      const stored: StoredSmtp = {
        host: data.host,
        port: data.port,
        security: data.security,
        user,
        password: data.password
          ? tokenCipher.encrypt(data.password).toString('base64')
          : user !== null && current?.user === user
            ? current.password
            : null,
        from: data.from,
      };
      await writeSetting(sql, smtpKey(ctx.workspaceId), JSON.stringify(stored));
      return this.smtp(ctx);
    },

    async smtp(ctx: RequestContext): Promise<SmtpView | null> {
      const stored = await readSetting(sql, smtpKey(ctx.workspaceId));
      if (!stored) return null;
      const { password, ...rest } = JSON.parse(stored) as StoredSmtp;
      return { ...rest, passwordSet: password !== null };
    },

    /** Sends a test e-mail through the workspace's SMTP server now and reports the server's answer. */
    async testSmtp(ctx: RequestContext, input: { to?: string | undefined }): Promise<SmtpTestResult> {
      await requireAdmin(ctx);
      const data = parse(SmtpTestSchema, input);
      const to = data.to ?? (ctx.userId ? (await getUser(sql, ctx.userId))?.email : undefined);
      if (!to) throw new AppError('invalid_request', 'say which address the test e-mail goes to.');
      if (!(await readSetting(sql, smtpKey(ctx.workspaceId))))
        throw new AppError('invalid_request', 'set the SMTP server first.');
      try {
        await sendWorkspaceMail(core, ctx.workspaceId, {
          to,
          subject: 'AdLens test e-mail',
          text: 'This is a test from AdLens: alerts, digests and reports will be sent through this server.',
        });
        return { delivered: true, to, error: null };
      } catch (error) {
        return { delivered: false, to, error: error instanceof Error ? error.message : String(error) };
      }
    },

    /** The signed-in user's own morning digest (hour null: none). */
    async digest(ctx: RequestContext): Promise<DigestView> {
      if (!ctx.userId) throw new AppError('invalid_request', 'the digest belongs to a signed-in user.');
      const row = await digestOf(sql, ctx.userId);
      return {
        userId: ctx.userId,
        hour: row?.hour ?? null,
        timezone: row?.timezone ?? 'UTC',
        lastSentAt: row?.last_sent_at ?? null,
      };
    },

    async preferences(ctx: RequestContext) {
      return prefsOf(core, ctx.workspaceId);
    },

    /** Quiet hours (in a time zone) and muted accounts; what is not given is kept. */
    async setPreferences(ctx: RequestContext, input: AlertPreferences) {
      const data = parse(AlertPreferencesSchema, input);
      const current = await prefsOf(core, ctx.workspaceId);
      const muted = data.mutedAccountIds
        ? await Promise.all(data.mutedAccountIds.map(async (id) => (await resolveAccount(sql, ctx, id)).id))
        : undefined;
      const next = {
        quietFrom: data.quietFrom === undefined ? current.quietFrom : data.quietFrom,
        quietTo: data.quietTo === undefined ? current.quietTo : data.quietTo,
        timezone: data.timezone ?? current.timezone,
        mutedAccountIds: muted ?? current.mutedAccountIds,
        pacingShare: data.pacingShare ?? current.pacingShare,
      };
      if ((next.quietFrom === null) !== (next.quietTo === null)) {
        throw new AppError('invalid_request', 'quiet hours need both a start and an end hour.');
      }
      await writeSetting(sql, prefsKey(ctx.workspaceId), JSON.stringify(next));
      return next;
    },

    /** A user's morning digest: the local hour and time zone (hour null: none). */
    async setDigest(ctx: RequestContext, input: DigestSettings) {
      const data = parse(DigestSettingsSchema, input);
      const user = await getUser(sql, data.userId);
      if (!user || user.workspaceId !== ctx.workspaceId) {
        throw new AppError('not_found', `User ${data.userId} was not found.`);
      }
      if (ctx.userId && ctx.userId !== user.id) await requireAdmin(ctx);
      if (data.hour === null) {
        await deleteDigest(sql, user.id);
        return { userId: user.id, hour: null, timezone: data.timezone, lastSentAt: null };
      }
      const current = await digestOf(sql, user.id);
      await saveDigest(sql, {
        user_id: user.id,
        workspace_id: ctx.workspaceId,
        hour: data.hour,
        timezone: data.timezone,
        last_day: current?.last_day ?? null,
        last_sent_at: current?.last_sent_at ?? null,
      });
      return {
        userId: user.id,
        hour: data.hour,
        timezone: data.timezone,
        lastSentAt: current?.last_sent_at ?? null,
      };
    },
  };
}

export type AlertUseCases = ReturnType<typeof alertUseCases>;
