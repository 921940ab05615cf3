// `user invite`: the only way a user joins a workspace; prints a one-time link valid 7 days.
import { z } from 'zod';
import { createInvitation, listInvitations } from '../../core/identity/invitations';
import { requireWorkspace } from '../../core/identity/workspaces';
import { cli, command, type CommandModule } from '../framework';

const userCommands: CommandModule = [
  command({
    path: ['invite'],
    summary: 'invites a user by email and prints a one-time invitation URL (valid 7 days)',
    options: { workspace: { type: 'string' }, email: { type: 'string' }, 'base-url': { type: 'string' } },
    input: z.object({
      workspace: z.string({ error: '--workspace WS is required' }).min(1),
      email: z.email({ error: '--email must be an email address' }),
      'base-url': z.url({ protocol: /^https?$/ }).optional(),
      positionals: cli.noPositionals,
    }),
    async run(ctx, input) {
      const core = ctx.core();
      requireWorkspace(core.db, input.workspace);
      const { invitation, url } = createInvitation(core.db, core.clock, {
        workspaceId: input.workspace,
        email: input.email,
        ...(input['base-url'] ? { baseUrl: input['base-url'] } : {}),
      });
      return {
        json: { invitation, url },
        text: `${url}\n(one-time link for ${invitation.email}, valid until ${invitation.expiresAt})`,
      };
    },
  }),
  command({
    path: ['invitations'],
    summary: 'lists a workspace invitations',
    options: { workspace: { type: 'string' } },
    input: z.object({
      workspace: z.string({ error: '--workspace WS is required' }).min(1),
      positionals: cli.noPositionals,
    }),
    async run(ctx, input) {
      const db = ctx.core().db;
      requireWorkspace(db, input.workspace);
      const invitations = listInvitations(db, input.workspace);
      return {
        json: { invitations },
        text:
          invitations
            .map(
              (i) =>
                `${i.id}\t${i.email}\t${i.acceptedAt ? `accepted ${i.acceptedAt}` : `open until ${i.expiresAt}`}`,
            )
            .join('\n') || '(no invitations)',
      };
    },
  }),
];

export default userCommands;
