// Settings: workspace and plan, API keys (shown once, with a copy button), the Andromeda profile,
// white-label defaults, the reporting currency, the local API address, alert destinations (owners
// and admins), (for the owner) the people with access, and (desktop) the team server.
import { useState, type FormEvent } from 'react';
import type { AndromedaProfile, ApiKeyCreated, SettingsView } from '../../../shared/ipc';
import { useCall, useCallMutation } from '../api/hooks';
import { Empty, ErrorState, Loading, PageHeader, StatusPill } from '../components/ui';
import { date, relative, titleCase } from '../format';
import { Alerts } from './settings/Alerts';
import { AlertSchedule, SmtpSettings } from './settings/Email';
import { People } from './settings/People';
import { ReportingCurrency } from './settings/ReportingCurrency';
import { TeamServer, teamServerBridge } from './settings/TeamServer';

function CopyButton(props: { text: string; label: string }): React.JSX.Element {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="button"
      onClick={() => {
        void navigator.clipboard?.writeText(props.text).then(
          () => setCopied(true),
          () => setCopied(false),
        );
      }}
    >
      {copied ? 'Copied' : props.label}
    </button>
  );
}

function ApiKeys(props: { settings: SettingsView }): React.JSX.Element {
  const keys = useCall('keys.list', {});
  const create = useCallMutation('keys.create', ['keys']);
  const revoke = useCallMutation('keys.revoke', ['keys']);
  const [name, setName] = useState('');
  const [mode, setMode] = useState<'test' | 'live'>('test');
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    create.mutate(
      { name, mode },
      {
        onSuccess: (value) => {
          setCreated(value);
          setName('');
        },
      },
    );
  };
  if (!props.settings.workspace.apiAllowed) {
    return <p className="muted">The local API comes with the Agency plan.</p>;
  }
  return (
    <>
      {created ? (
        <div className="banner banner-ok key-once" role="status">
          <div>
            <strong>Copy your new key now: it will not be shown again.</strong>
            <code className="secret" data-testid="new-api-key">
              {created.key}
            </code>
          </div>
          <CopyButton text={created.key} label="Copy key" />
          <button type="button" className="link-button" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      ) : null}
      <form className="form form-row" onSubmit={submit}>
        <label>
          Key name
          <input
            placeholder="e.g. Reporting script"
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <label>
          Mode
          <select value={mode} onChange={(e) => setMode(e.target.value as 'test' | 'live')}>
            <option value="test">Test (demo accounts)</option>
            <option value="live">Live (real accounts)</option>
          </select>
        </label>
        <button type="submit" className="button primary" disabled={create.isPending}>
          Create API key
        </button>
      </form>
      {create.error ? <p className="form-error">{create.error.message}</p> : null}
      {keys.isPending ? (
        <Loading />
      ) : keys.isError ? (
        <ErrorState error={keys.error} onRetry={() => void keys.refetch()} />
      ) : keys.data.length === 0 ? (
        <Empty title="No API keys yet." />
      ) : (
        <table className="data-table static">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Mode</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((k) => (
              <tr key={k.id}>
                <td>{k.name || <span className="muted">Unnamed</span>}</td>
                <td>
                  <code>{k.hint}</code>
                </td>
                <td>{titleCase(k.mode)}</td>
                <td>{date(k.createdAt)}</td>
                <td>{relative(k.lastUsedAt)}</td>
                <td>{k.revokedAt ? <StatusPill status="revoked" /> : <StatusPill status="active" />}</td>
                <td>
                  {k.revokedAt ? null : (
                    <button
                      type="button"
                      className="button subtle danger"
                      aria-label={`Revoke ${k.name || k.hint}`}
                      onClick={() => {
                        if (
                          window.confirm(`Revoke ${k.name || k.hint}? Scripts using it stop working at once.`)
                        )
                          revoke.mutate({ id: k.id });
                      }}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function Andromeda(): React.JSX.Element {
  const profile = useCall('profile.get', {});
  const update = useCallMutation('profile.update', ['profile']);
  if (profile.isPending) return <Loading />;
  if (profile.isError) return <ErrorState error={profile.error} />;
  const save = (changes: Partial<AndromedaProfile>): void =>
    update.mutate({
      riskAppetite: profile.data.riskAppetite,
      focusMetric: profile.data.focusMetric,
      ...changes,
    } as Pick<AndromedaProfile, 'riskAppetite' | 'focusMetric'>);
  return (
    <div className="form form-row">
      <label>
        Risk appetite
        <select
          value={profile.data.riskAppetite}
          onChange={(e) => save({ riskAppetite: e.target.value as AndromedaProfile['riskAppetite'] })}
        >
          <option value="LOW">Low: flag problems early</option>
          <option value="MEDIUM">Medium</option>
          <option value="HIGH">High: only clear problems</option>
        </select>
      </label>
      <label>
        Focus metric
        <select
          value={profile.data.focusMetric}
          onChange={(e) => save({ focusMetric: e.target.value as AndromedaProfile['focusMetric'] })}
        >
          <option value="CPA">CPA</option>
          <option value="ROAS">ROAS</option>
          <option value="CTR">CTR</option>
          <option value="CONVERSIONS">Conversions</option>
        </select>
      </label>
      <span className="muted small" role="status">
        {update.isPending
          ? 'Saving…'
          : update.isSuccess
            ? 'Saved. New diagnostics use it.'
            : 'Shapes thresholds and the order of recommendations.'}
      </span>
    </div>
  );
}

function WhiteLabelDefaults(props: { settings: SettingsView }): React.JSX.Element {
  const update = useCallMutation('settings.update', ['settings']);
  const current = props.settings.whiteLabelDefaults;
  const [companyName, setCompanyName] = useState(current?.companyName ?? '');
  const [primaryColor, setPrimaryColor] = useState(current?.primaryColor ?? '#2f5fd0');
  const [footerText, setFooterText] = useState(current?.footerText ?? '');
  if (!props.settings.workspace.whiteLabelAllowed)
    return <p className="muted">White-label reports come with the Agency plan.</p>;
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    update.mutate({
      whiteLabelDefaults: companyName.trim()
        ? {
            companyName: companyName.trim(),
            primaryColor,
            ...(footerText.trim() ? { footerText: footerText.trim() } : {}),
          }
        : null,
    });
  };
  return (
    <form className="form form-row" onSubmit={submit}>
      <label>
        Company name
        <input value={companyName} onChange={(e) => setCompanyName(e.target.value)} />
      </label>
      <label>
        Primary colour
        <input type="color" value={primaryColor} onChange={(e) => setPrimaryColor(e.target.value)} />
      </label>
      <label>
        Footer text
        <input value={footerText} onChange={(e) => setFooterText(e.target.value)} />
      </label>
      <button type="submit" className="button" disabled={update.isPending}>
        Save defaults
      </button>
      {update.error ? (
        <span className="form-error">{update.error.message}</span>
      ) : update.isSuccess ? (
        <span className="muted small">Saved.</span>
      ) : null}
    </form>
  );
}

function LocalApi(props: { settings: SettingsView }): React.JSX.Element {
  const update = useCallMutation('settings.update', ['settings']);
  const [port, setPort] = useState(String(props.settings.api.port));
  const base = props.settings.api.baseUrl;
  return (
    <>
      <p>
        {base ? (
          <>
            Scripts reach this workspace at <code data-testid="api-address">{base}/v1</code>{' '}
            <CopyButton text={`${base}/v1`} label="Copy address" />
          </>
        ) : (
          <span className="muted">The local API is not running.</span>
        )}
      </p>
      {props.settings.host === 'desktop' ? (
        <form
          className="form form-row"
          onSubmit={(e) => {
            e.preventDefault();
            update.mutate({ apiPort: Number(port) });
          }}
        >
          <label>
            Port
            <input
              type="number"
              min={1024}
              max={65535}
              value={port}
              onChange={(e) => setPort(e.target.value)}
            />
          </label>
          <button type="submit" className="button" disabled={update.isPending}>
            Save port
          </button>
          {update.isSuccess ? (
            <span className="muted small">Saved. The new port is used after a restart.</span>
          ) : null}
          {update.error ? <span className="form-error">{update.error.message}</span> : null}
        </form>
      ) : null}
    </>
  );
}

/** Closing the window can leave the watch running in the tray; and AdLens can open at login. */
function DesktopWatch(props: { settings: SettingsView }): React.JSX.Element {
  const update = useCallMutation('settings.update', ['settings']);
  const prefs = props.settings.desktop;
  return (
    <div className="form">
      <label className="checkbox-row">
        <input
          type="checkbox"
          checked={prefs.keepRunningInTray}
          disabled={update.isPending}
          onChange={(e) => update.mutate({ keepRunningInTray: e.target.checked })}
        />
        Keep AdLens running in the system tray when the window is closed (accounts keep syncing, diagnoses and
        alerts go on)
      </label>
      <label className="checkbox-row">
        <input
          type="checkbox"
          checked={prefs.openAtLogin}
          disabled={update.isPending}
          onChange={(e) => update.mutate({ openAtLogin: e.target.checked })}
        />
        Open AdLens when I log in
      </label>
      {update.error ? <span className="form-error">{update.error.message}</span> : null}
    </div>
  );
}

/** The agency's own Meta app, for "Log in with Facebook" on the connect screen (desktop app). */
function MetaApp(props: { settings: SettingsView }): React.JSX.Element {
  const update = useCallMutation('settings.update', ['settings']);
  const [appId, setAppId] = useState(props.settings.metaApp.appId ?? '');
  const [secret, setSecret] = useState('');
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate(
          { metaAppId: appId.trim() || null, ...(secret.trim() ? { metaAppSecret: secret.trim() } : {}) },
          { onSuccess: () => setSecret('') },
        );
      }}
    >
      <p className="muted small">
        Your agency&apos;s Meta app (Meta for Developers, App settings &gt; Basic). The desktop app opens
        Meta&apos;s login in your browser and lists every ad account you can reach; pasting a token works
        without it.
      </p>
      <label>
        App ID
        <input inputMode="numeric" value={appId} onChange={(e) => setAppId(e.target.value)} />
      </label>
      <label>
        App secret{' '}
        {props.settings.metaApp.hasSecret ? <span className="muted small">(set; stored sealed)</span> : null}
        <input
          type="password"
          autoComplete="off"
          placeholder={props.settings.metaApp.hasSecret ? 'Leave empty to keep it' : ''}
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
        />
      </label>
      <button type="submit" className="button" disabled={update.isPending}>
        Save
      </button>
      {update.isSuccess ? <span className="muted small">Saved.</span> : null}
      {update.error ? <span className="form-error">{update.error.message}</span> : null}
    </form>
  );
}

export default function Settings(): React.JSX.Element {
  const settings = useCall('settings.get', {});
  if (settings.isPending) return <Loading label="Loading settings…" />;
  if (settings.isError) return <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />;
  const s = settings.data;
  const teamBridge = teamServerBridge();
  return (
    <>
      <PageHeader title="Settings" subtitle={`${s.workspace.name} · signed in as ${s.user.email}`} />
      <section className="panel" aria-labelledby="ws-title">
        <h2 id="ws-title">Workspace</h2>
        <dl className="stats">
          <div>
            <dt>Name</dt>
            <dd>{s.workspace.name}</dd>
          </div>
          <div>
            <dt>Plan</dt>
            <dd>{titleCase(s.workspace.plan)}</dd>
          </div>
          <div>
            <dt>Local API</dt>
            <dd>{s.workspace.apiAllowed ? 'Included' : 'Agency plan'}</dd>
          </div>
          <div>
            <dt>White-label</dt>
            <dd>{s.workspace.whiteLabelAllowed ? 'Included' : 'Agency plan'}</dd>
          </div>
        </dl>
      </section>
      {s.user.role === 'owner' ? (
        <section className="panel" aria-labelledby="people-title">
          <h2 id="people-title">People</h2>
          <People selfId={s.user.id} />
        </section>
      ) : null}
      {s.user.role !== 'member' ? (
        <section className="panel" aria-labelledby="alerts-title">
          <h2 id="alerts-title">Alerts</h2>
          <Alerts />
          <h3>Quiet hours and morning digest</h3>
          <AlertSchedule />
        </section>
      ) : null}
      {s.user.role !== 'member' ? (
        <section className="panel" aria-labelledby="smtp-title">
          <h2 id="smtp-title">E-mail (SMTP)</h2>
          <SmtpSettings />
        </section>
      ) : null}
      <section className="panel" aria-labelledby="keys-title">
        <h2 id="keys-title">API keys</h2>
        <ApiKeys settings={s} />
      </section>
      <section className="panel" aria-labelledby="andromeda-title">
        <h2 id="andromeda-title">Andromeda profile</h2>
        <Andromeda />
      </section>
      <section className="panel" aria-labelledby="wl-title">
        <h2 id="wl-title">White-label defaults</h2>
        <WhiteLabelDefaults settings={s} />
      </section>
      <section className="panel" aria-labelledby="currency-title">
        <h2 id="currency-title">Reporting currency</h2>
        <ReportingCurrency settings={s} />
      </section>
      <section className="panel" aria-labelledby="api-title">
        <h2 id="api-title">Local API address</h2>
        <LocalApi settings={s} />
      </section>
      {s.host === 'desktop' ? (
        <section className="panel" aria-labelledby="watch-title">
          <h2 id="watch-title">Keep watching</h2>
          <DesktopWatch settings={s} />
        </section>
      ) : null}
      {teamBridge ? (
        <section className="panel" aria-labelledby="team-server-title">
          <h2 id="team-server-title">Team server</h2>
          <TeamServer bridge={teamBridge} />
        </section>
      ) : null}
      <section className="panel" aria-labelledby="meta-app-title">
        <h2 id="meta-app-title">Facebook Login</h2>
        <MetaApp settings={s} />
      </section>
    </>
  );
}
