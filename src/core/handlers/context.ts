// What a handler runs with: who is calling (the desktop's local owner, or a signed-in dashboard user),
// and the App whose use cases it calls.
import type { App } from '../app';
import type { RequestContext } from '../identity/access';

/** The API's RequestContext for a person (not a key): services need no second code path. */
export interface HandlerContext extends RequestContext {
  userId: string;
  keyId: null;
  mode: 'all';
}

/** The composed App: handlers call its use cases (`app.use`) and read nothing else of it. */
export type HandlerApp = App;

/** What differs between the desktop window and the web dashboard. */
export interface HandlerHost {
  kind: 'desktop' | 'web';
}

export interface HandlerEnv {
  app: HandlerApp;
  host: HandlerHost;
}
