import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTeamServerAddress, TEAM_SERVER_ADDRESS_MESSAGES } from './address';
import { TeamMode } from './controller';
import {
  TEAM_SESSION_PARTITION,
  teamMenuItems,
  teamNavigation,
  windowTarget,
  type WindowTarget,
} from './policy';
import { readTeamServerSetting, writeTeamServerSetting } from './setting';

const settingFile = (): string => join(mkdtempSync(join(tmpdir(), 'adlens-team-mode-')), 'team-server.json');

describe('team server address', () => {
  it('takes https anywhere and plain http on this computer only', () => {
    expect(parseTeamServerAddress('https://adlens.agency.example')).toEqual({
      ok: true,
      address: { origin: 'https://adlens.agency.example', entry: 'https://adlens.agency.example/' },
    });
    for (const local of [
      'http://127.0.0.1:4100',
      'http://localhost:4100/',
      'http://[::1]:4100',
      'http://127.3.2.1',
    ])
      expect(parseTeamServerAddress(local).ok, local).toBe(true);
    for (const remote of [
      'http://adlens.agency.example',
      'http://192.168.1.20:4100',
      'http://10.0.0.1',
      'http://localhost.evil.example',
    ])
      expect(parseTeamServerAddress(remote), remote).toEqual({
        ok: false,
        message: TEAM_SERVER_ADDRESS_MESSAGES.plainHttp,
      });
  });

  it('refuses what is not an http(s) address, and credentials in it', () => {
    expect(parseTeamServerAddress('')).toEqual({ ok: false, message: TEAM_SERVER_ADDRESS_MESSAGES.notUrl });
    expect(parseTeamServerAddress('adlens.agency.example')).toEqual({
      ok: false,
      message: TEAM_SERVER_ADDRESS_MESSAGES.notUrl,
    });
    expect(parseTeamServerAddress(42)).toMatchObject({ ok: false });
    for (const scheme of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'ftp://agency.example',
      'ws://127.0.0.1',
    ])
      expect(parseTeamServerAddress(scheme), scheme).toEqual({
        ok: false,
        message: TEAM_SERVER_ADDRESS_MESSAGES.protocol,
      });
    expect(parseTeamServerAddress('https://ana:secret@adlens.agency.example')).toEqual({
      ok: false,
      message: TEAM_SERVER_ADDRESS_MESSAGES.credentials,
    });
  });

  it('keeps an invitation link as the first page, the origin as the address', () => {
    expect(parseTeamServerAddress('  https://adlens.agency.example/invite/abc  ')).toEqual({
      ok: true,
      address: { origin: 'https://adlens.agency.example', entry: 'https://adlens.agency.example/invite/abc' },
    });
  });
});

describe('window target and navigation', () => {
  it('shows the local renderer in local mode, the team dashboard in its own partition in team mode', () => {
    expect(windowTarget({ mode: 'local', url: 'https://adlens.agency.example' })).toEqual({ kind: 'local' });
    expect(windowTarget({ mode: 'team', url: 'https://adlens.agency.example' })).toEqual({
      kind: 'team',
      origin: 'https://adlens.agency.example',
      url: 'https://adlens.agency.example/',
      partition: TEAM_SESSION_PARTITION,
    });
    expect(TEAM_SESSION_PARTITION.startsWith('persist:')).toBe(true);
  });

  it('opens the typed page only on the same origin', () => {
    const setting = { mode: 'team', url: 'https://adlens.agency.example' } as const;
    expect(windowTarget(setting, 'https://adlens.agency.example/invite/abc')).toMatchObject({
      url: 'https://adlens.agency.example/invite/abc',
    });
    expect(windowTarget(setting, 'https://elsewhere.example/invite/abc')).toMatchObject({
      url: 'https://adlens.agency.example/',
    });
  });

  it('keeps the team window on its origin, sends other https pages to the browser, refuses the rest', () => {
    const origin = 'https://adlens.agency.example';
    expect(teamNavigation(origin, 'https://adlens.agency.example/#/campaigns')).toBe('allow');
    expect(teamNavigation(origin, 'https://adlens.agency.example/invite/x')).toBe('allow');
    expect(teamNavigation(origin, 'https://www.facebook.com/business/help')).toBe('external');
    expect(teamNavigation(origin, 'https://adlens.agency.example:8443/')).toBe('external');
    expect(teamNavigation(origin, 'http://adlens.agency.example/')).toBe('deny');
    expect(teamNavigation(origin, 'file:///etc/passwd')).toBe('deny');
    expect(teamNavigation(origin, 'javascript:alert(1)')).toBe('deny');
    expect(teamNavigation(origin, 'not a url')).toBe('deny');
    expect(teamNavigation('http://127.0.0.1:4100', 'http://127.0.0.1:4100/bridge/session')).toBe('allow');
    expect(teamNavigation('http://127.0.0.1:4100', 'http://127.0.0.1:9999/')).toBe('deny');
  });

  it('offers the way back to the local store in the menu while in team mode', () => {
    const enabled = (items: ReturnType<typeof teamMenuItems>) =>
      Object.fromEntries(items.map((item) => [item.action, item.enabled]));
    expect(enabled(teamMenuItems({ mode: 'team', url: 'https://adlens.agency.example' }))).toEqual({
      useLocal: true,
      useTeam: false,
      teamSettings: false,
    });
    expect(enabled(teamMenuItems({ mode: 'local', url: 'https://adlens.agency.example' }))).toEqual({
      useLocal: false,
      useTeam: true,
      teamSettings: true,
    });
    expect(enabled(teamMenuItems({ mode: 'local', url: null }))).toMatchObject({ useTeam: false });
  });
});

describe('the persisted setting', () => {
  it('starts local, and reads back what was written (owner-only file)', () => {
    const file = settingFile();
    expect(readTeamServerSetting(file)).toEqual({ mode: 'local', url: null });
    writeTeamServerSetting(file, { mode: 'team', url: 'https://adlens.agency.example' });
    expect(readTeamServerSetting(file)).toEqual({ mode: 'team', url: 'https://adlens.agency.example' });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('falls back to the local store on a broken or hand-edited file, and says why', () => {
    const file = settingFile();
    const warnings: string[] = [];
    const warn = (message: string): void => void warnings.push(message);
    writeFileSync(file, '{ not json');
    expect(readTeamServerSetting(file, warn)).toEqual({ mode: 'local', url: null });
    writeFileSync(file, JSON.stringify({ version: 2, mode: 'team', url: 'https://a.example' }));
    expect(readTeamServerSetting(file, warn)).toEqual({ mode: 'local', url: null });
    writeFileSync(file, JSON.stringify({ version: 1, mode: 'team', url: 'http://192.168.1.20:4100' }));
    expect(readTeamServerSetting(file, warn)).toEqual({ mode: 'local', url: null });
    expect(warnings).toHaveLength(3);
    expect(warnings[2]).toContain('Plain http://');
  });
});

describe('switching between the local store and a team server', () => {
  it('validates, persists and shows the target; back to local keeps the address', () => {
    const file = settingFile();
    const shown: WindowTarget[] = [];
    const mode = new TeamMode({ file, show: (target) => shown.push(target) });
    expect(mode.initialTarget()).toEqual({ kind: 'local' });

    expect(mode.use('http://team.agency.example')).toEqual({
      ok: false,
      error: { type: 'invalid_request', message: TEAM_SERVER_ADDRESS_MESSAGES.plainHttp },
    });
    expect(shown).toEqual([]);
    expect(readTeamServerSetting(file)).toEqual({ mode: 'local', url: null });

    expect(mode.use('http://127.0.0.1:4100/invite/tok')).toEqual({
      ok: true,
      value: { mode: 'team', url: 'http://127.0.0.1:4100' },
    });
    expect(shown.at(-1)).toMatchObject({ kind: 'team', url: 'http://127.0.0.1:4100/invite/tok' });
    // A restart opens the team server's home page (the invitation was one-time).
    expect(new TeamMode({ file, show: () => {} }).initialTarget()).toMatchObject({
      kind: 'team',
      url: 'http://127.0.0.1:4100/',
    });

    expect(mode.useLocal()).toEqual({ ok: true, value: { mode: 'local', url: 'http://127.0.0.1:4100' } });
    expect(shown.at(-1)).toEqual({ kind: 'local' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: 1,
      mode: 'local',
      url: 'http://127.0.0.1:4100',
    });

    expect(mode.useRemembered()).toMatchObject({ ok: true, value: { mode: 'team' } });
    expect(shown.at(-1)).toMatchObject({ kind: 'team', url: 'http://127.0.0.1:4100/' });
  });

  it('cannot go back to a team server that was never set', () => {
    const mode = new TeamMode({ file: settingFile(), show: () => {} });
    expect(mode.useRemembered()).toMatchObject({ ok: false, error: { type: 'invalid_request' } });
  });
});
