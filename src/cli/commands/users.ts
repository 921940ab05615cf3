// `user invite|invitations|list|disable|enable|remove`: people of a workspace. Invitation is the only
// way in (a one-time link valid 7 days); the owner can disable or remove anyone but the last owner.
import { z } from 'zod';
import type { User } from '../../core/identity/users';
import { cli, command, type CommandModule } from '../framework';

const userId = z
  .array(z.string().regex(/^user_[0-9A-Za-z]{16}$/, 'give the user ID (user_…)'))
  .length(1, 'give one USER_ID');

const line = (u: User): string => `${u.id}\t${u.role}\t${u.status}\t${u.email}\t${u.name ?? '-'}`;

/** disable | enable | remove USER_ID, acting as the workspace's owner (the machine's administrator). */
function userChange(verb: 'disable' | 'enable' | 'remove', summary: string) {
  return command({
    path: [verb],
    summary,
    options: {},
    input: z.object({ positionals: userId }),
    async run(ctx, input) {
      const { identity } = ctx.app().use;
      const id = input.positionals[0] as string;
      const rc = await identity.contextForWorkspaceOf({ userId: id });
      const user =
        verb === 'disable'
          ? await identity.disableUser(rc, id)
          : verb === 'enable'
            ? await identity.enableUser(rc, id)
            : await identity.removeUser(rc, id);
      return { json: { user }, text: line(user) };
    },
  });
}

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
      const { identity } = ctx.app().use;
      const { invitation, url } = await identity.invite(await identity.contextForWorkspace(input.workspace), {
        email: input.email,
        baseUrl: input['base-url'],
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
      const { identity } = ctx.app().use;
      const invitations = await identity.listInvitations(await identity.contextForWorkspace(input.workspace));
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
  command({
    path: ['list'],
    summary: 'lists who has access to a workspace, with roles and status',
    options: { workspace: { type: 'string' } },
    input: z.object({
      workspace: z.string({ error: '--workspace WS is required' }).min(1),
      positionals: cli.noPositionals,
    }),
    async run(ctx, input) {
      const { identity } = ctx.app().use;
      const users = await identity.listUsers(await identity.contextForWorkspace(input.workspace));
      return { json: { users }, text: users.map(line).join('\n') || '(no users)' };
    },
  }),
  userChange('disable', 'disables a user: sign-in refused, sessions and streams ended, keys revoked'),
  userChange('enable', 'lets a disabled user sign in again'),
  userChange('remove', 'removes a user (as disable; the email can be invited again; history stays)'),
];

export default userCommands;
