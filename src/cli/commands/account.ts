import { z } from 'zod';
import { isPlatformAccountId } from '../../core/ids';
import type { AccountView } from '../../shared/ipc/types';
import { cli, command, type CommandModule } from '../framework';

const line = (a: AccountView) =>
  `${a.id}\t${a.platformAccountId}\t${a.mode}\t${a.connectionStatus}\t${a.currency}\t${a.lastSyncedAt ?? 'never synced'}\t${a.name}`;

const accountCommands: CommandModule = [
  command({
    path: ['list'],
    summary: "lists a workspace's connected ad accounts",
    options: { workspace: { type: 'string' } },
    input: z.object({
      workspace: z.string({ error: '--workspace WS is required' }),
      positionals: cli.noPositionals,
    }),
    async run(ctx, input) {
      const { use } = ctx.app();
      const accounts = await use.accounts.all(use.identity.contextForWorkspace(input.workspace));
      return { json: { accounts }, text: accounts.map(line).join('\n') || '(no accounts)' };
    },
  }),
  command({
    path: ['connect'],
    summary: 'connects a platform ad account (the embedded demo platform unless --platform-url and --token)',
    options: {
      workspace: { type: 'string' },
      'platform-account': { type: 'string' },
      'platform-url': { type: 'string' },
      token: { type: 'string' },
      'api-version': { type: 'string' },
      mode: { type: 'string' },
    },
    input: z
      .object({
        workspace: z.string({ error: '--workspace WS is required' }),
        'platform-account': z
          .string({ error: '--platform-account act_<digits> is required' })
          .refine(isPlatformAccountId, 'platform account IDs look like act_<digits>'),
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
      const account = await use.accounts.connect(use.identity.contextForWorkspace(input.workspace), {
        platformAccountId: input['platform-account'],
        platform:
          url && input.token
            ? { baseUrl: url, token: input.token, apiVersion: input['api-version'] }
            : undefined,
        mode: input.mode,
      });
      return { json: { account }, text: line(account) };
    },
  }),
];

export default accountCommands;
