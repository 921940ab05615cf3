// The desktop's team-server choice, persisted by main in one small JSON file in the data directory (a
// file, not a table: it is the app's choice, not the workspace's, and is read before any window
// shows). Read defensively: a missing, unreadable or
// hand-edited file, or an address that no longer passes the rules, means the local store.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { TeamServerView } from '../../shared/ipc';
import { parseTeamServerAddress } from './address';

const storedSetting = z.object({
  version: z.literal(1),
  mode: z.enum(['local', 'team']),
  url: z.string().nullable(),
});

export const LOCAL_STORE: TeamServerView = { mode: 'local', url: null };

export function readTeamServerSetting(
  file: string,
  warn: (message: string) => void = () => {},
): TeamServerView {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return LOCAL_STORE;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    warn(`team server setting ${file} is not JSON; using the local store`);
    return LOCAL_STORE;
  }
  const parsed = storedSetting.safeParse(json);
  if (!parsed.success) {
    warn(`team server setting ${file} is not valid; using the local store`);
    return LOCAL_STORE;
  }
  if (parsed.data.url === null) return LOCAL_STORE;
  const address = parseTeamServerAddress(parsed.data.url);
  if (!address.ok) {
    warn(`team server address in ${file} refused (${address.message}); using the local store`);
    return LOCAL_STORE;
  }
  return { mode: parsed.data.mode, url: address.address.origin };
}

/** Written whole (temp file, then rename), owner-only: a crash never leaves half a setting. */
export function writeTeamServerSetting(file: string, setting: TeamServerView): void {
  if (setting.mode === 'team' && setting.url === null) throw new Error('team mode needs an address');
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ version: 1, ...setting }, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, file);
}
