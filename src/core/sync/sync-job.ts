// A sync as it crosses to the sync worker: everything the engine needs as plain data (the token is
// unsealed by the host, where the keychain is), progress back, and errors as values that keep their
// meaning (a stop, a Graph API error with its kind, an AppError with its type).
import type { CoreErrorType } from '../../shared/errors';
import { AppError, isAppError } from '../errors';
import { GraphError, type GraphErrorKind } from '../platform/errors';
import type { GraphClientOptions } from '../platform/graph-client';
import type { AdAccount } from './accounts';
import { SyncStopped } from './engine';
import type { SyncKind } from './runs';

export type SyncClientTuning = Partial<
  Pick<GraphClientOptions, 'maxRetries' | 'backoffBaseMs' | 'pageLimit' | 'maxThrottleWaitMs' | 'asyncPollMs'>
>;

export interface SyncJobRequest {
  dataDir: string;
  /** The run row, whose progress the worker writes itself. */
  syncRunId: string;
  account: AdAccount;
  kind: SyncKind;
  updatedSince: string | null;
  endpoint: { url: string; apiVersion: string };
  token: string;
  client: SyncClientTuning;
  /** The host clock's offset from the system clock (a pinned or shifted clock carries over). */
  clockOffsetMs: number;
}

/** Progress already filtered (forward only) and recorded by the worker: the host only announces it. */
export interface SyncJobProgress {
  phase: string;
  percent: number;
}

export type SyncFault =
  | { kind: 'stopped' }
  | { kind: 'graph'; graphKind: GraphErrorKind; message: string; info: GraphError['info'] }
  | { kind: 'app'; type: CoreErrorType; message: string }
  | { kind: 'error'; message: string };

export function toSyncFault(error: unknown): SyncFault {
  if (error instanceof SyncStopped) return { kind: 'stopped' };
  if (error instanceof GraphError)
    return { kind: 'graph', graphKind: error.kind, message: error.message, info: error.info };
  if (isAppError(error)) return { kind: 'app', type: error.type, message: error.message };
  return { kind: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}

export function fromSyncFault(fault: SyncFault): Error {
  switch (fault.kind) {
    case 'stopped':
      return new SyncStopped();
    case 'graph':
      return new GraphError(fault.graphKind, fault.message, fault.info);
    case 'app':
      return new AppError(fault.type, fault.message);
    default:
      return new Error(fault.message);
  }
}
