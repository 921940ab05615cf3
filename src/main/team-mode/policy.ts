// What the desktop window shows and where it may go, as plain decisions main applies. The team
// server's pages load in their own window: no preload (no IPC for a remote origin), a separate
// persistent session partition (its sign-in cookie never mixes with the local window's session),
// and navigation held to the team server's origin.
import type { TeamServerView } from '../../shared/ipc';

/** The team window's session: persistent, so the analyst stays signed in across restarts. */
export const TEAM_SESSION_PARTITION = 'persist:adlens-team-server';

export type WindowTarget =
  { kind: 'local' } | { kind: 'team'; origin: string; url: string; partition: typeof TEAM_SESSION_PARTITION };

/**
 * The window for a setting: the local renderer, or the team server's dashboard at `entry` (the page
 * the analyst typed, e.g. an invitation link) or else its home page.
 */
export function windowTarget(setting: TeamServerView, entry?: string): WindowTarget {
  if (setting.mode !== 'team' || setting.url === null) return { kind: 'local' };
  const origin = new URL(setting.url).origin;
  const url = entry !== undefined && sameOrigin(entry, origin) ? entry : `${origin}/`;
  return { kind: 'team', origin, url, partition: TEAM_SESSION_PARTITION };
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/**
 * A navigation (link, redirect, form) of the team window: its own origin stays in the window; an
 * https page elsewhere (Meta's help, a client's site) goes to the system browser; anything else
 * (another origin over http, file:, javascript:, custom schemes) is refused.
 */
export function teamNavigation(origin: string, url: string): 'allow' | 'external' | 'deny' {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return 'deny';
  }
  if (target.origin === origin && (target.protocol === 'https:' || target.protocol === 'http:'))
    return 'allow';
  if (target.protocol === 'https:' && !target.username && !target.password) return 'external';
  return 'deny';
}

export type TeamMenuAction = 'useLocal' | 'useTeam' | 'teamSettings';

export interface TeamMenuItem {
  action: TeamMenuAction;
  label: string;
  enabled: boolean;
}

/** The application menu's "Team server" items for the current setting (the way back to local). */
export function teamMenuItems(setting: TeamServerView): TeamMenuItem[] {
  const team = setting.mode === 'team';
  return [
    { action: 'useLocal', label: 'Use Local Store', enabled: team },
    {
      action: 'useTeam',
      label: setting.url ? `Use Team Server (${new URL(setting.url).host})` : 'Use Team Server',
      enabled: !team && setting.url !== null,
    },
    { action: 'teamSettings', label: 'Team Server Settings…', enabled: !team },
  ];
}
