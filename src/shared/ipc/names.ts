// The names of the handler map, without zod, so the sandboxed preload can build one named function
// per handler without bundling the schemas. `schemas.ts` checks it covers exactly these names.
export const HANDLER_NAMES = [
  'accounts.list',
  'accounts.sync',
  'accounts.connectDemo',
  'accounts.connectToken',
  'accounts.demoCandidates',
  'accounts.facebookLogin',
  'accounts.available',
  'accounts.connectMany',
  'accounts.disconnect',
  'accounts.reconnect',
  'campaigns.list',
  'campaigns.get',
  'campaigns.setTargetCpa',
  'campaigns.changes',
  'diagnostics.list',
  'diagnostics.get',
  'diagnostics.run',
  'diagnostics.feedback',
  'reports.list',
  'reports.create',
  'reports.schedule',
  'reports.schedules',
  'reports.unschedule',
  'reports.preview',
  'reports.branding',
  'reports.setBranding',
  'insights.summary',
  'keys.list',
  'keys.create',
  'keys.revoke',
  'profile.get',
  'profile.update',
  'settings.get',
  'settings.update',
  'users.list',
  'users.disable',
  'users.enable',
  'users.remove',
  'issues.list',
  'issues.acknowledge',
  'issues.snooze',
  'watch.schedules',
  'watch.setInterval',
  'alerts.list',
  'alerts.add',
  'alerts.remove',
  'alerts.test',
  'alerts.smtp',
  'alerts.setSmtp',
  'alerts.testSmtp',
  'alerts.preferences',
  'alerts.setPreferences',
  'alerts.digest',
  'alerts.setDigest',
  'goals.list',
  'goals.campaign',
  'goals.set',
  'goals.clear',
  'views.list',
  'views.save',
  'views.remove',
  'portfolio.home',
  'portfolio.overview',
  'diagnostics.history',
  'diagnostics.changes',
  'diagnostics.evidence',
] as const;

export type HandlerName = (typeof HANDLER_NAMES)[number];

export function isHandlerName(value: string): value is HandlerName {
  return (HANDLER_NAMES as readonly string[]).includes(value);
}

/** The IPC channel of a handler: one channel per map entry, never a generic one. */
export const ipcChannel = (name: HandlerName): `ipc:${HandlerName}` => `ipc:${name}`;

/** The channel main pushes core events on, and the one the renderer asks a report save on. */
export const EVENTS_CHANNEL = 'adlens:event';
export const SAVE_REPORT_CHANNEL = 'adlens:save-report';

/** The desktop's team-server choice: read it, switch to a team server, switch back to the local store. */
export const TEAM_SERVER_CHANNELS = {
  get: 'adlens:team-server:get',
  use: 'adlens:team-server:use',
  useLocal: 'adlens:team-server:use-local',
} as const;
