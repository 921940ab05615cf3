// `key create|list|revoke|limits`: API keys for the /v1 API (shown once, stored hashed).
import { z } from 'zod';
import type { ApiKeyInfo } from '../../core/identity/api-keys';
import { cli, command, type CommandModule } from '../framework';

const keyId = z
  .array(z.string().regex(/^key_[0-9A-Za-z]{16}$/, 'give the key ID (key_…), not the key'))
  .length(1, 'give one KEY_ID');
const limit = z.coerce.number().int().min(1).max(1_000_000_000).optional();

function line(k: ApiKeyInfo): string {
  const state = k.revokedAt ? `revoked ${k.revokedAt}` : k.expiresAt ? `expires ${k.expiresAt}` : 'active';
  return `${k.id}\t${k.mode}\t${k.hint}\t${k.name || '-'}\t${state}`;
}

const keyCommands: CommandModule = [
  command({
    path: ['create'],
    summary: 'creates an API key and prints it once',
    options: {
      workspace: { type: 'string' },
      mode: { type: 'string' },
      name: { type: 'string' },
      'expires-in-days': { type: 'string' },
      user: { type: 'string' },
    },
    input: z.object({
      workspace: z.string({ error: '--workspace WS is required' }).min(1),
      mode: z.enum(['live', 'test'], { error: '--mode is live or test' }).default('live'),
      name: z.string().max(100).optional(),
      'expires-in-days': z.coerce.number().int().min(1).max(3650).optional(),
      user: z.string().optional(),
      positionals: cli.noPositionals,
    }),
    async run(ctx, input) {
      const { use } = ctx.app();
      const { key, apiKey } = await use.identity.createKey(
        await use.identity.contextForWorkspace(input.workspace),
        {
          mode: input.mode,
          name: input.name,
          expiresInDays: input['expires-in-days'],
          userId: input.user,
        },
      );
      return {
        json: { apiKey, key },
        text: `${apiKey.id}\n${key}\n(the key is shown only now: store it safely)`,
      };
    },
  }),
  command({
    path: ['list'],
    summary: 'lists a workspace API keys (hints only)',
    options: { workspace: { type: 'string' } },
    input: z.object({
      workspace: z.string({ error: '--workspace WS is required' }).min(1),
      positionals: cli.noPositionals,
    }),
    async run(ctx, input) {
      const { use } = ctx.app();
      const apiKeys = await use.identity.listKeys(await use.identity.contextForWorkspace(input.workspace));
      return { json: { apiKeys }, text: apiKeys.map(line).join('\n') || '(no keys)' };
    },
  }),
  command({
    path: ['revoke'],
    summary: 'revokes an API key (its requests get 401 key_revoked)',
    options: {},
    input: z.object({ positionals: keyId }),
    async run(ctx, input) {
      const { use } = ctx.app();
      const keyId = input.positionals[0] as string;
      const apiKey = await use.identity.revokeKey(await use.identity.contextForWorkspaceOf({ keyId }), keyId);
      return { json: { apiKey }, text: `revoked ${apiKey.id} at ${apiKey.revokedAt}` };
    },
  }),
  command({
    path: ['limits'],
    summary:
      'sets per-key rate limits per minute (higher limits granted on request); --reset restores defaults',
    options: {
      reads: { type: 'string' },
      writes: { type: 'string' },
      diagnostics: { type: 'string' },
      reports: { type: 'string' },
      reset: { type: 'boolean' },
    },
    input: z.object({
      positionals: keyId,
      reads: limit,
      writes: limit,
      diagnostics: limit,
      reports: limit,
      reset: z.boolean().optional(),
    }),
    async run(ctx, input) {
      const { use } = ctx.app();
      const id = input.positionals[0] as string;
      const given = Object.fromEntries(
        (['reads', 'writes', 'diagnostics', 'reports'] as const)
          .filter((name) => input[name] !== undefined)
          .map((name) => [name, input[name]]),
      );
      const apiKey = await use.identity.setKeyLimits(
        await use.identity.contextForWorkspaceOf({ keyId: id }),
        id,
        input.reset ? null : given,
      );
      return {
        json: { apiKey },
        text: `${apiKey.id} limits: ${JSON.stringify(apiKey.limitOverrides ?? 'defaults')}`,
      };
    },
  }),
];

export default keyCommands;
