// People in Settings (owner only): who has access, disable, enable, remove. Translation only: the
// rules (owner-only, never the last owner, what access ends) are in the identity use cases.
import type { User } from '../identity/users';
import type { UserView } from '../../shared/ipc/types';
import type { HandlerEnv } from './context';
import type { HandlerImpls } from './dispatch';

const userView = (u: User): UserView => ({
  id: u.id,
  email: u.email,
  name: u.name,
  role: u.role,
  status: u.status,
  createdAt: u.createdAt,
});

export function userHandlers(
  env: HandlerEnv,
): Pick<HandlerImpls, 'users.list' | 'users.disable' | 'users.enable' | 'users.remove'> {
  const { identity } = env.app.use;
  return {
    'users.list': async (ctx) => (await identity.listUsers(ctx)).map(userView),
    'users.disable': async (ctx, args) => userView(await identity.disableUser(ctx, args.userId)),
    'users.enable': async (ctx, args) => userView(await identity.enableUser(ctx, args.userId)),
    'users.remove': async (ctx, args) => userView(await identity.removeUser(ctx, args.userId)),
  };
}
