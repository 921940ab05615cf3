// The handler map: every domain's handlers joined into one object the dispatcher serves.
import type { Logger } from '../core';
import { accountHandlers } from './accounts';
import { alertHandlers } from './alerts';
import { campaignHandlers } from './campaigns';
import type { HandlerEnv } from './context';
import { diagnosticHandlers } from './diagnostics';
import { createDispatcher, type Dispatch, type HandlerImpls } from './dispatch';
import { goalHandlers } from './goals';
import { insightHandlers } from './insights';
import { portfolioHandlers } from './portfolio';
import { reportHandlers } from './reports';
import { savedViewHandlers } from './saved-views';
import { settingsHandlers } from './settings';
import { userHandlers } from './users';
import { watchHandlers } from './watch';

export type { HandlerApp, HandlerContext, HandlerEnv, HandlerHost } from './context';
export type { Dispatch, HandlerImpls } from './dispatch';
export { createDispatcher } from './dispatch';
export { reportFile } from './reports';
export { API_PORT_SETTING, DEFAULT_API_PORT } from './settings';

export function createHandlers(env: HandlerEnv): HandlerImpls {
  return {
    ...accountHandlers(env),
    ...campaignHandlers(env),
    ...diagnosticHandlers(env),
    ...reportHandlers(env),
    ...insightHandlers(env),
    ...settingsHandlers(env),
    ...userHandlers(env),
    ...watchHandlers(env),
    ...alertHandlers(env),
    ...goalHandlers(env),
    ...savedViewHandlers(env),
    ...portfolioHandlers(env),
  };
}

export function createHandlerDispatch(env: HandlerEnv, logger: Logger = env.app.core.logger): Dispatch {
  return createDispatcher(createHandlers(env), logger);
}
