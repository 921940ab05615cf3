// The one entry every host goes through: name lookup, zod validation of the arguments, and errors
// turned into values. Electron's ipcMain and the web bridge both call `dispatch`; nothing else
// reaches a handler, so validation lives here once.
import type { ZodError } from 'zod';
import { isAppError } from '../errors';
import type { Logger } from '../core';
import { randomBase62 } from '../ids';
import type { Result } from '../../shared/errors';
import { LONE_SURROGATE_MESSAGE, loneSurrogatePath } from '../../shared/text';
import { isHandlerName, type HandlerName } from '../../shared/ipc/names';
import { argSchemas, type HandlerArgs, type HandlerResult } from '../../shared/ipc/schemas';
import type { HandlerContext } from './context';

export type HandlerImpl<K extends HandlerName> = (
  ctx: HandlerContext,
  args: HandlerArgs<K>,
) => Promise<HandlerResult<K>> | HandlerResult<K>;

export type HandlerImpls = { [K in HandlerName]: HandlerImpl<K> };

export type Dispatch = (ctx: HandlerContext, name: string, rawArgs: unknown) => Promise<Result<unknown>>;

function describe(error: ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

export function createDispatcher(impls: HandlerImpls, logger: Logger): Dispatch {
  return async (ctx, name, rawArgs) => {
    if (!isHandlerName(name)) {
      return { ok: false, error: { type: 'invalid_request', message: `no handler named ${name}` } };
    }
    const invalidText = loneSurrogatePath(rawArgs);
    if (invalidText) {
      return {
        ok: false,
        error: { type: 'invalid_request', message: `${invalidText} ${LONE_SURROGATE_MESSAGE}` },
      };
    }
    const parsed = argSchemas[name].safeParse(rawArgs ?? {});
    if (!parsed.success) {
      return { ok: false, error: { type: 'invalid_request', message: describe(parsed.error) } };
    }
    try {
      const impl = impls[name] as (ctx: HandlerContext, args: unknown) => unknown;
      return { ok: true, value: await impl(ctx, parsed.data) };
    } catch (error) {
      if (isAppError(error)) return { ok: false, error: error.toValue() };
      // Internal errors are logged with an ID the user can quote, and never shown raw.
      const requestId = `req_${randomBase62(12)}`;
      logger.error('handler failed', {
        handler: name,
        requestId,
        error: String((error as Error)?.stack ?? error),
      });
      return {
        ok: false,
        error: { type: 'api_error', message: `Something went wrong (reference ${requestId}).` },
      };
    }
  };
}
