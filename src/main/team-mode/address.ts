// The team server's address as the analyst types it: an http(s) URL; plain http only for a server on
// this computer (loopback), since the session cookie and the password would otherwise cross the
// network in clear. Plain TS (no Electron), so main and its tests share it.
import { z } from 'zod';

/** Hostnames that can only mean this computer (URL keeps IPv6 in brackets). */
function isLoopback(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

export const TEAM_SERVER_ADDRESS_MESSAGES = {
  notUrl: "Enter the team server's address, such as https://adlens.agency.example.",
  protocol: 'A team server address starts with https:// (or http:// for a server on this computer).',
  plainHttp:
    'Plain http:// is only allowed for a server on this computer (localhost, 127.0.0.1 or [::1]); use https:// for a team server.',
  credentials: "Leave the user name and password out of the address: you sign in on the team server's page.",
} as const;

/**
 * A valid address, parsed: `origin` is what is remembered and the only origin the team window may
 * show; `entry` is the page to open first (the address as typed, e.g. an invitation link).
 */
export const teamServerAddress = z
  .string()
  .trim()
  .min(1, TEAM_SERVER_ADDRESS_MESSAGES.notUrl)
  .max(2048, TEAM_SERVER_ADDRESS_MESSAGES.notUrl)
  .transform((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: TEAM_SERVER_ADDRESS_MESSAGES.notUrl });
      return z.NEVER;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      ctx.addIssue({ code: 'custom', message: TEAM_SERVER_ADDRESS_MESSAGES.protocol });
      return z.NEVER;
    }
    if (url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: TEAM_SERVER_ADDRESS_MESSAGES.credentials });
      return z.NEVER;
    }
    if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
      ctx.addIssue({ code: 'custom', message: TEAM_SERVER_ADDRESS_MESSAGES.plainHttp });
      return z.NEVER;
    }
    return { origin: url.origin, entry: url.href };
  });

export type TeamServerAddress = z.output<typeof teamServerAddress>;

export type AddressCheck = { ok: true; address: TeamServerAddress } | { ok: false; message: string };

export function parseTeamServerAddress(input: unknown): AddressCheck {
  const parsed = teamServerAddress.safeParse(input);
  if (parsed.success) return { ok: true, address: parsed.data };
  return { ok: false, message: parsed.error.issues[0]?.message ?? TEAM_SERVER_ADDRESS_MESSAGES.notUrl };
}
