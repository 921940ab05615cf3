// Facebook Login for Business, as the desktop app runs it: the agency's own Meta app (Settings), the
// dialog opened in the system browser by the host, the loopback redirect, and the long-lived token it
// ends with, which the connect screen then lists accounts with. Pasting a token stays the other way.
import type { AppServices } from '../app-services';
import { AppError } from '../errors';
import { GRAPH_URL } from '../platform/graph-client';
import { metaApp } from '../settings/use-cases';
import { startLoopbackLogin } from './oauth-login';

export const FACEBOOK_DIALOG_URL = 'https://www.facebook.com';

export interface FacebookLoginInput {
  /** 'meta' (default), or the embedded demo platform's own login dialog. */
  platform?: 'meta' | 'demo' | undefined;
}

export async function facebookLogin(
  services: AppServices,
  input: FacebookLoginInput,
): Promise<{ token: string; expiresAt: string | null }> {
  const open = services.host.openInBrowser;
  if (!open) {
    throw new AppError(
      'invalid_request',
      'Facebook Login opens your browser, so it runs in the desktop app; here, paste an access token instead.',
    );
  }
  const app = await metaApp(services.core.sql, services.core.tokenCipher);
  if (!app) {
    throw new AppError(
      'invalid_request',
      "Set your agency's Meta app ID and app secret in Settings first (Meta for Developers > your app > App settings > Basic).",
    );
  }
  let urls = { graphUrl: GRAPH_URL, dialogUrl: FACEBOOK_DIALOG_URL };
  if (input.platform === 'demo') {
    const demo = services.host.demoPlatform();
    if (!demo) throw new AppError('invalid_request', 'No demo platform runs in this app.');
    urls = { graphUrl: demo.url, dialogUrl: demo.url };
  }
  const login = await startLoopbackLogin({ ...app, ...urls });
  try {
    await open(login.authorizeUrl);
  } catch (error) {
    login.cancel();
    throw new AppError('api_error', `The browser could not be opened: ${(error as Error).message}`);
  }
  return login.result;
}
