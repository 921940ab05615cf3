import { z } from 'zod';
import { isPlatformAccountId } from '../../core/ids';
import type { AvailableAccounts, ConnectManyResult } from '../../shared/api/available-accounts';
import type { AccountView } from '../../shared/ipc/types';
import { cli, command, type CommandModule } from '../framework';

const line = (a: AccountView) =>
  `${a.id}\t${a.platformAccountId}\t${a.mode}\t${a.connectionStatus}\t${a.currency}\t${a.lastSyncedAt ?? 'never synced'}\t${a.name}`;

/** What a token reaches, one business per block: relation, platform ID, currency, tasks, and why not. */
function availableText(found: AvailableAccounts): string {
  const blocks = found.groups.map((group) => {
    const title = group.business ? `${group.business.name} (${group.business.id})` : 'Own ad accounts';
    const rows = group.accounts.map(
      (a) =>
        `  ${a.connected ? '[connected]' : a.canConnect ? '[ ]' : '[refused]'}\t${a.platformAccountId}\t${a.relation}\t${a.currency}\t${a.tasks.join('+') || '-'}\t${a.name}${a.reason ? `\n      ${a.reason}` : ''}`,
    );
    return [title, ...rows].join('\n');
  });
  const expiry = found.token.expiresAt ? `, expires ${found.token.expiresAt}` : '';
  const head = `${found.total} ad accounts on ${found.platform} (token ${found.token.type ?? 'of unknown kind'}${expiry})`;
  return [head, ...blocks, ...found.warnings.map((w) => `note: ${w}`)].join('\n');
}

function connectManyText(result: ConnectManyResult): string {
  return result.outcomes
    .map((o) =>
      o.status === 'connected'
        ? `connected\t${o.platformAccountId}\t${o.accountId ?? ''}`
        : `refused\t${o.platformAccountId}\t${o.error?.message ?? ''}`,
    )
    .join('\n');
}

const platformAccountIds = z
  .union([z.string(), z.array(z.string())], { error: '--platform-account act_<digits> is required' })
  .transform((value) =>
    (Array.isArray(value) ? value : [value])
      .flatMap((item) => item.split(','))
      .map((item) => item.trim())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(z.string().refine(isPlatformAccountId, 'platform account IDs look like act_<digits>'))
      .min(1, '--platform-account act_<digits> is required'),
  );

const accountCommands: CommandModule = [
  command({
    path: ['list'],
    summary:
      "lists a workspace's connected ad accounts; --available: every account a token reaches (the demo platform's unless --platform-url and --token), by business",
    options: {
      workspace: { type: 'string' },
      available: { type: 'boolean' },
      'platform-url': { type: 'string' },
      token: { type: 'string' },
      'api-version': { type: 'string' },
    },
    input: z
      .object({
        workspace: z.string({ error: '--workspace WS is required' }),
        available: z.boolean().optional(),
        'platform-url': z
          .url({ protocol: /^https?$/, error: '--platform-url must be an http(s) URL' })
          .optional(),
        token: z.string().min(1).optional(),
        'api-version': z
          .string()
          .regex(/^v\d+\.\d+$/, 'API versions look like v25.0')
          .optional(),
        positionals: cli.noPositionals,
      })
      .refine((v) => (v['platform-url'] === undefined) === (v.token === undefined), {
        message: '--platform-url and --token go together (omit both for the embedded demo platform)',
      })
      .refine((v) => v.available === true || v.token === undefined, {
        message: '--platform-url and --token are for --available',
      }),
    async run(ctx, input) {
      const { use } = ctx.app();
      const workspace = await use.identity.contextForWorkspace(input.workspace);
      if (input.available) {
        const found = await use.accounts.available(workspace, {
          platformUrl: input['platform-url'],
          token: input.token,
          apiVersion: input['api-version'],
        });
        return { json: { available: found }, text: availableText(found) };
      }
      const accounts = await use.accounts.all(workspace);
      return { json: { accounts }, text: accounts.map(line).join('\n') || '(no accounts)' };
    },
  }),
  command({
    path: ['connect'],
    summary:
      'connects platform ad accounts (act_1,act_2 or a repeated --platform-account; the embedded demo platform unless --platform-url and --token)',
    options: {
      workspace: { type: 'string' },
      'platform-account': { type: 'string', multiple: true },
      'platform-url': { type: 'string' },
      token: { type: 'string' },
      'api-version': { type: 'string' },
      mode: { type: 'string' },
    },
    input: z
      .object({
        workspace: z.string({ error: '--workspace WS is required' }),
        'platform-account': platformAccountIds,
        'platform-url': z
          .url({ protocol: /^https?$/, error: '--platform-url must be an http(s) URL' })
          .optional(),
        token: z.string().min(1).optional(),
        'api-version': z
          .string()
          .regex(/^v\d+\.\d+$/, 'API versions look like v25.0')
          .optional(),
        mode: z.enum(['test', 'live']).optional(),
        positionals: cli.noPositionals,
      })
      .refine((v) => (v['platform-url'] === undefined) === (v.token === undefined), {
        message: '--platform-url and --token go together (omit both for the embedded demo platform)',
      }),
    async run(ctx, input) {
      const { use } = ctx.app();
      const url = input['platform-url'];
      const workspace = await use.identity.contextForWorkspace(input.workspace);
      const ids = input['platform-account'];
      const [single] = ids;
      if (ids.length === 1 && single) {
        const account = await use.accounts.connect(workspace, {
          platformAccountId: single,
          platform:
            url && input.token
              ? { baseUrl: url, token: input.token, apiVersion: input['api-version'] }
              : undefined,
          mode: input.mode,
        });
        return { json: { account }, text: line(account) };
      }
      // Several: each connects or is refused on its own; the exit code says whether any was refused.
      const result = await use.accounts.connectMany(workspace, {
        platformAccountIds: ids,
        platformUrl: url,
        token: input.token,
        apiVersion: input['api-version'],
        mode: input.mode,
      });
      return { json: { ...result }, text: connectManyText(result), exitCode: result.refused > 0 ? 1 : 0 };
    },
  }),
];

export default accountCommands;
