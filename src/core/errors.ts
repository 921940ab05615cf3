import type { CoreErrorType, ErrorValue } from '../shared/errors';

/** An expected failure with a stable type; anything else that is thrown is an internal error. */
export class AppError extends Error {
  constructor(
    readonly type: CoreErrorType,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  toValue(): ErrorValue {
    return { type: this.type, message: this.message };
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
