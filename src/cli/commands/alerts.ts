// `alerts add|list|test|remove|smtp|quiet|mute|unmute|digest`: where the watcher's findings reach the
// analyst. Translation only: the rules are in the alerts use cases.
import { z } from 'zod';
import { ALERT_TYPES, type AlertDestinationView, type AlertType } from '../../shared/api/alerts';
import { RISK_LEVELS } from '../../shared/api/diagnostics';
import { cli, command, type CommandModule } from '../framework';

const workspace = z.string({ error: '--workspace WS is required' }).min(1);
const destinationId = z
  .array(z.string().regex(/^dest_[0-9A-Za-z]{16}$/, 'give the destination ID (dest_…)'))
  .length(1, 'give one DESTINATION_ID');
const hour = (name: string) =>
  z.coerce
    .number({ error: `--${name} is an hour (0-23)` })
    .int()
    .min(0)
    .max(23);

const line = (d: AlertDestinationView): string =>
  `${d.id}\t${d.kind}\t${d.target}\t${d.format}\tmin ${d.minRisk}\t${d.accountId ?? 'all accounts'}\t${
    d.lastDelivery ? `last ${d.lastDelivery.status} ${d.lastDelivery.at}` : 'never sent'
  }`;

const alertCommands: CommandModule = [
  command({
    path: ['add'],
    summary:
      'adds a destination: --webhook URL [--slack] or --email ADDRESS, [--min-risk LOW|MEDIUM|HIGH|CRITICAL] [--account ID] [--types a,b]',
    options: {
      workspace: { type: 'string' },
      webhook: { type: 'string' },
      email: { type: 'string' },
      account: { type: 'string' },
      'min-risk': { type: 'string' },
      slack: { type: 'boolean' },
      types: { type: 'string' },
    },
    input: z
      .object({
        workspace,
        webhook: z.string().optional(),
        email: z.string().optional(),
        account: z.string().optional(),
        'min-risk': z
          .enum(RISK_LEVELS, { error: `--min-risk is one of ${RISK_LEVELS.join(', ')}` })
          .optional(),
        slack: z.boolean().optional(),
        types: z
          .string()
          .refine(
            (v) => v.split(',').every((t) => (ALERT_TYPES as readonly string[]).includes(t)),
            `--types is a comma-separated list of ${ALERT_TYPES.join(', ')}`,
          )
          .optional(),
        positionals: cli.noPositionals,
      })
      .refine((i) => (i.webhook === undefined) !== (i.email === undefined), {
        message: 'give --webhook URL or --email ADDRESS',
      }),
    async run(ctx, input) {
      const { identity, alerts } = ctx.app().use;
      const created = await alerts.add(await identity.contextForWorkspace(input.workspace), {
        kind: input.webhook ? 'webhook' : 'email',
        target: (input.webhook ?? input.email) as string,
        ...(input.account ? { accountId: input.account } : {}),
        ...(input['min-risk'] ? { minRisk: input['min-risk'] } : {}),
        ...(input.slack ? { slack: true } : {}),
        ...(input.types ? { types: input.types.split(',') as AlertType[] } : {}),
      });
      return {
        json: { destination: created },
        text: `${line(created)}${
          created.secret
            ? `\nsigning secret (shown once; keep it to check AdLens-Signature): ${created.secret}`
            : ''
        }`,
      };
    },
  }),
  command({
    path: ['list'],
    summary: "lists the workspace's alert destinations",
    options: { workspace: { type: 'string' } },
    input: z.object({ workspace, positionals: cli.noPositionals }),
    async run(ctx, input) {
      const { identity, alerts } = ctx.app().use;
      const destinations = await alerts.list(await identity.contextForWorkspace(input.workspace));
      return { json: { destinations }, text: destinations.map(line).join('\n') || '(no destinations)' };
    },
  }),
  command({
    path: ['test'],
    summary: 'sends a signed test event to a destination and reports the HTTP status',
    options: { workspace: { type: 'string' } },
    input: z.object({ workspace, positionals: destinationId }),
    async run(ctx, input) {
      const { identity, alerts } = ctx.app().use;
      const result = await alerts.test(
        await identity.contextForWorkspace(input.workspace),
        input.positionals[0] as string,
      );
      return {
        json: { result },
        text: result.delivered
          ? `delivered${result.httpStatus ? ` (HTTP ${result.httpStatus})` : ''}`
          : `not delivered: ${result.error ?? 'unknown error'}`,
        exitCode: result.delivered ? 0 : 1,
      };
    },
  }),
  command({
    path: ['remove'],
    summary: 'removes a destination (its pending deliveries go with it)',
    options: { workspace: { type: 'string' } },
    input: z.object({ workspace, positionals: destinationId }),
    async run(ctx, input) {
      const { identity, alerts } = ctx.app().use;
      const removed = await alerts.remove(
        await identity.contextForWorkspace(input.workspace),
        input.positionals[0] as string,
      );
      return { json: { destination: removed }, text: `removed ${removed.id}` };
    },
  }),
  command({
    path: ['smtp'],
    summary:
      "sets the workspace's SMTP server: --host H --port P [--security tls|starttls|none] [--user U --password P] --from F",
    options: {
      workspace: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      security: { type: 'string' },
      user: { type: 'string' },
      password: { type: 'string' },
      from: { type: 'string' },
    },
    input: z.object({
      workspace,
      host: z.string({ error: '--host is required' }).min(1),
      port: z.coerce.number({ error: '--port is a number' }).int().min(1).max(65535),
      security: z.enum(['tls', 'starttls', 'none']).optional(),
      user: z.string().optional(),
      password: z.string().optional(),
      from: z.string({ error: '--from is required' }).min(3),
      positionals: cli.noPositionals,
    }),
    async run(ctx, input) {
      const { identity, alerts } = ctx.app().use;
      const smtp = await alerts.setSmtp(await identity.contextForWorkspace(input.workspace), {
        host: input.host,
        port: input.port,
        ...(input.security ? { security: input.security } : {}),
        ...(input.user ? { user: input.user } : {}),
        ...(input.password ? { password: input.password } : {}),
        from: input.from,
      });
      return {
        json: { smtp },
        text: `SMTP ${smtp?.host}:${smtp?.port} (${smtp?.security}) from ${smtp?.from}`,
      };
    },
  }),
  command({
    path: ['quiet'],
    summary: 'holds e-mails and webhooks --from HOUR --to HOUR [--timezone ZONE], or --off',
    options: {
      workspace: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      timezone: { type: 'string' },
      off: { type: 'boolean' },
    },
    input: z
      .object({
        workspace,
        from: hour('from').optional(),
        to: hour('to').optional(),
        timezone: z.string().optional(),
        off: z.boolean().optional(),
        positionals: cli.noPositionals,
      })
      .refine((i) => (i.off === true) !== (i.from !== undefined && i.to !== undefined), {
        message: 'give --from HOUR --to HOUR, or --off',
      }),
    async run(ctx, input) {
      const { identity, alerts } = ctx.app().use;
      const prefs = await alerts.setPreferences(await identity.contextForWorkspace(input.workspace), {
        quietFrom: input.off ? null : (input.from as number),
        quietTo: input.off ? null : (input.to as number),
        ...(input.timezone ? { timezone: input.timezone } : {}),
      });
      return {
        json: { preferences: prefs },
        text:
          prefs.quietFrom === null
            ? 'no quiet hours'
            : `quiet from ${prefs.quietFrom}:00 to ${prefs.quietTo}:00 (${prefs.timezone})`,
      };
    },
  }),
  command({
    path: ['pacing'],
    summary:
      'how far a day of spend may be off the daily budgets before an alert: --share 0.5 (under 50% or over 150%)',
    options: { workspace: { type: 'string' }, share: { type: 'string' } },
    input: z.object({
      workspace,
      share: z.coerce.number({ error: '--share is a number such as 0.5' }).min(0.1).max(5),
      positionals: cli.noPositionals,
    }),
    async run(ctx, input) {
      const { identity, alerts } = ctx.app().use;
      const prefs = await alerts.setPreferences(await identity.contextForWorkspace(input.workspace), {
        pacingShare: input.share,
      });
      return {
        json: { preferences: prefs },
        text: `spend.pacing when a day is under ${Math.round((1 - Math.min(1, prefs.pacingShare)) * 100)}% or over ${Math.round((1 + prefs.pacingShare) * 100)}% of the daily budgets`,
      };
    },
  }),
  ...(['mute', 'unmute'] as const).map((verb) =>
    command({
      path: [verb],
      summary: verb === 'mute' ? "mutes one account's alerts" : "unmutes one account's alerts",
      options: { workspace: { type: 'string' }, account: { type: 'string' } },
      input: z.object({
        workspace,
        account: z.string({ error: '--account ID is required' }).min(1),
        positionals: cli.noPositionals,
      }),
      async run(ctx, input) {
        const { identity, alerts, accounts } = ctx.app().use;
        const wsCtx = await identity.contextForWorkspace(input.workspace);
        const current = await alerts.preferences(wsCtx);
        const account = await accounts.get(wsCtx, input.account);
        const muted =
          verb === 'mute'
            ? [...new Set([...current.mutedAccountIds, account.id])]
            : current.mutedAccountIds.filter((id) => id !== account.id);
        const prefs = await alerts.setPreferences(wsCtx, { mutedAccountIds: muted });
        return {
          json: { preferences: prefs },
          text: `muted: ${prefs.mutedAccountIds.join(', ') || '(none)'}`,
        };
      },
    }),
  ),
  command({
    path: ['digest'],
    summary: "sets a user's morning digest: --user USER_ID --hour H [--timezone ZONE], or --off",
    options: {
      workspace: { type: 'string' },
      user: { type: 'string' },
      hour: { type: 'string' },
      timezone: { type: 'string' },
      off: { type: 'boolean' },
    },
    input: z
      .object({
        workspace,
        user: z.string({ error: '--user USER_ID is required' }).min(1),
        hour: hour('hour').optional(),
        timezone: z.string().optional(),
        off: z.boolean().optional(),
        positionals: cli.noPositionals,
      })
      .refine((i) => (i.off === true) !== (i.hour !== undefined), { message: 'give --hour H or --off' }),
    async run(ctx, input) {
      const { identity, alerts } = ctx.app().use;
      const digest = await alerts.setDigest(await identity.contextForWorkspace(input.workspace), {
        userId: input.user,
        hour: input.off ? null : (input.hour as number),
        ...(input.timezone ? { timezone: input.timezone } : {}),
      });
      return {
        json: { digest },
        text: digest.hour === null ? 'no digest' : `digest at ${digest.hour}:00 ${digest.timezone}`,
      };
    },
  }),
];

export default alertCommands;
