import { z } from 'zod';
import { planSchema } from '../../core/identity/workspaces';
import { cli, command, type CommandModule } from '../framework';

const workspaceCommands: CommandModule = [
  command({
    path: ['create'],
    summary: 'creates a workspace',
    options: { name: { type: 'string' }, plan: { type: 'string' } },
    input: z.object({
      name: z.string({ error: '--name NAME is required' }).trim().min(1, '--name must not be empty'),
      plan: planSchema.default('agency'),
      positionals: cli.noPositionals,
    }),
    async run(ctx, input) {
      const workspace = await ctx.app().use.identity.createWorkspace({ name: input.name, plan: input.plan });
      return { json: { workspace }, text: `${workspace.id}\t${workspace.plan}\t${workspace.name}` };
    },
  }),
  command({
    path: ['list'],
    summary: 'lists workspaces',
    options: {},
    input: z.object({ positionals: cli.noPositionals }),
    async run(ctx) {
      const workspaces = await ctx.app().use.identity.listWorkspaces();
      return {
        json: { workspaces },
        text: workspaces.map((w) => `${w.id}\t${w.plan}\t${w.name}`).join('\n') || '(no workspaces)',
      };
    },
  }),
];

export default workspaceCommands;
