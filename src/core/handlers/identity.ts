// Who a handler call acts for: a user of a workspace, with that workspace's plan, seeing every mode.
import { AppError } from '../errors';
import { getUser } from '../identity/users';
import { getWorkspace } from '../identity/workspaces';
import type { Db } from '../store/open';
import type { HandlerContext } from './context';

export function contextForUser(db: Db, userId: string): HandlerContext {
  const user = getUser(db, userId);
  const workspace = user ? getWorkspace(db, user.workspaceId) : undefined;
  if (!user || !workspace) throw new AppError('authentication_error', 'This user no longer exists.');
  return { workspaceId: workspace.id, userId: user.id, plan: workspace.plan, keyId: null, mode: 'all' };
}
