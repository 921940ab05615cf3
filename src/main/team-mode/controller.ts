// The team-server choice as use cases: read it, switch to a team server, switch back. Main wires it to
// IPC, the application menu and the windows; the e2e desktop stand-in wires the same class to its
// HTTP bridge, so both run this code. Errors come back as values (the bridge's Result).
import type { Result } from '../../shared/errors';
import type { TeamServerView } from '../../shared/ipc';
import { parseTeamServerAddress } from './address';
import { windowTarget, type WindowTarget } from './policy';
import { readTeamServerSetting, writeTeamServerSetting } from './setting';

export interface TeamModeOptions {
  /** The JSON file main keeps the choice in (under the app's user-data folder). */
  file: string;
  /** Shows a window target: main loads the local renderer or the team window. */
  show: (target: WindowTarget) => void;
  warn?: (message: string) => void;
}

export class TeamMode {
  private setting: TeamServerView;

  constructor(private readonly options: TeamModeOptions) {
    this.setting = readTeamServerSetting(options.file, options.warn);
  }

  view(): TeamServerView {
    return { ...this.setting };
  }

  /** The window the app opens with (the persisted choice). */
  initialTarget(): WindowTarget {
    return windowTarget(this.setting);
  }

  use(input: unknown): Result<TeamServerView> {
    const checked = parseTeamServerAddress(input);
    if (!checked.ok) return { ok: false, error: { type: 'invalid_request', message: checked.message } };
    return this.save({ mode: 'team', url: checked.address.origin }, checked.address.entry);
  }

  /** Back to the team server last used (the menu item), when one is remembered. */
  useRemembered(): Result<TeamServerView> {
    if (this.setting.url === null)
      return { ok: false, error: { type: 'invalid_request', message: 'No team server address is set.' } };
    return this.save({ mode: 'team', url: this.setting.url });
  }

  useLocal(): Result<TeamServerView> {
    return this.save({ mode: 'local', url: this.setting.url });
  }

  private save(next: TeamServerView, entry?: string): Result<TeamServerView> {
    try {
      writeTeamServerSetting(this.options.file, next);
    } catch (error) {
      this.options.warn?.(`team server setting not saved: ${String(error)}`);
      return { ok: false, error: { type: 'api_error', message: 'The setting could not be saved.' } };
    }
    this.setting = next;
    this.options.show(windowTarget(next, entry));
    return { ok: true, value: this.view() };
  }
}
