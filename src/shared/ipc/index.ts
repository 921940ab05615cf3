// The IPC contract: one typed handler map, shared by core, preload, renderer and the web bridge.
import type { Result } from '../errors';
import type { HandlerName } from './names';
import type { HandlerInput, HandlerResult } from './schemas';
import type { BridgeEvent } from './types';

export * from './names';
export type { HandlerArgs, HandlerInput, HandlerResult, HandlerResults } from './schemas';
export type * from './types';

/** A typed call of one handler; errors come back as values, never as rejections. */
export type HandlerCall = <K extends HandlerName>(
  name: K,
  args: HandlerInput<K>,
) => Promise<Result<HandlerResult<K>>>;

/** One named function per handler: what the preload exposes on `window.adlens`. */
export type HandlerFunctions = {
  [K in HandlerName]: (args: HandlerInput<K>) => Promise<Result<HandlerResult<K>>>;
};

/** The whole desktop bridge: the handlers plus the host-only capabilities. */
export interface DesktopBridge {
  handlers: HandlerFunctions;
  onEvent(listener: (event: BridgeEvent) => void): () => void;
  /** Opens the native save dialog for a completed report; resolves to the saved path or null. */
  saveReport(reportId: string): Promise<Result<{ path: string | null }>>;
  /** Which store the window shows: the local one, or a team server's dashboard (desktop only). */
  teamServer: TeamServerBridge;
}

/** The desktop's team-server choice as main persisted it; `url` is remembered in local mode too. */
export interface TeamServerView {
  mode: 'local' | 'team';
  /** The team server's origin (https, or http on this computer only), or null when never set. */
  url: string | null;
}

export interface TeamServerBridge {
  get(): Promise<Result<TeamServerView>>;
  /** Validates and saves the address, then shows the team server's dashboard in the window. */
  use(url: string): Promise<Result<TeamServerView>>;
  /** Back to the local store (the address stays remembered). */
  useLocal(): Promise<Result<TeamServerView>>;
}
