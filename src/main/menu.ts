// The application menu: the standard roles (copy, paste, zoom, reload…) plus "Team Server", the way
// between the team server's window and the local store (items from team-mode/policy.ts).
import { Menu, type MenuItemConstructorOptions } from 'electron';
import type { TeamServerView } from '../shared/ipc';
import { teamMenuItems, type TeamMenuAction } from './team-mode/policy';

export function setApplicationMenu(setting: TeamServerView, act: (action: TeamMenuAction) => void): void {
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : [{ role: 'fileMenu' as const }]),
    { role: 'editMenu' },
    { role: 'viewMenu' },
    {
      label: 'Team Server',
      submenu: teamMenuItems(setting).map((item) => ({
        label: item.label,
        enabled: item.enabled,
        click: () => act(item.action),
      })),
    },
    { role: 'windowMenu' },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
