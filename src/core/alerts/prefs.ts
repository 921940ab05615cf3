// The workspace's alert settings in the settings store: quiet hours, mutes and the pacing share, and
// the SMTP server of alert e-mails (its password sealed).
import type { Core } from '../core';
import { readSetting } from '../settings/store';

export const prefsKey = (workspaceId: string) => `alerts.prefs:${workspaceId}`;
export const smtpKey = (workspaceId: string) => `alerts.smtp:${workspaceId}`;

export interface StoredPrefs {
  quietFrom: number | null;
  quietTo: number | null;
  timezone: string;
  mutedAccountIds: string[];
  /** How far a day's spend may be off the daily budgets before spend.pacing is raised. */
  pacingShare: number;
}

/** Default: a day under half the budget, or over 150% of it (Meta may spend up to 175% on one day). */
export const DEFAULT_PACING_SHARE = 0.5;

export interface StoredSmtp {
  host: string;
  port: number;
  security: 'tls' | 'starttls' | 'none';
  user: string | null;
  /** The password sealed with the token cipher, base64. */
  password: string | null;
  from: string;
}

export async function prefsOf(core: Core, workspaceId: string): Promise<StoredPrefs> {
  const stored = await readSetting(core.sql, prefsKey(workspaceId));
  return {
    quietFrom: null,
    quietTo: null,
    timezone: 'UTC',
    mutedAccountIds: [],
    pacingShare: DEFAULT_PACING_SHARE,
    ...(stored ? (JSON.parse(stored) as Partial<StoredPrefs>) : {}),
  };
}
