// E-mail in Settings: the agency's SMTP server (alerts, digests and reports are sent through it; the
// password is sealed and never shown back: leave it empty to keep it), a test e-mail, quiet hours
// and one's own morning digest. The rules are the alerts use cases', as for `alerts smtp|quiet|digest`.
import { useEffect, useState, type FormEvent } from 'react';
import type { HandlerResult } from '../../../../shared/ipc';
import { useCall, useCallMutation } from '../../api/hooks';
import { ErrorState, Loading } from '../../components/ui';

type Security = 'tls' | 'starttls' | 'none';
const HOURS = Array.from({ length: 24 }, (_, h) => h);
const hourLabel = (h: number): string => `${String(h).padStart(2, '0')}:00`;
const localZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function SmtpSettings(): React.JSX.Element {
  const current = useCall('alerts.smtp', {});
  const save = useCallMutation('alerts.setSmtp', ['alerts']);
  const test = useCallMutation('alerts.testSmtp', []);
  const [host, setHost] = useState('');
  const [port, setPort] = useState('587');
  const [security, setSecurity] = useState<Security>('starttls');
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const [from, setFrom] = useState('');
  const [saved, setSaved] = useState(false);
  const [tested, setTested] = useState<HandlerResult<'alerts.testSmtp'> | null>(null);
  useEffect(() => {
    const s = current.data;
    if (!s) return;
    setHost(s.host);
    setPort(String(s.port));
    setSecurity(s.security);
    setUser(s.user ?? '');
    setFrom(s.from);
  }, [current.data]);
  if (current.isPending) return <Loading />;
  if (current.isError) return <ErrorState error={current.error} onRetry={() => void current.refetch()} />;
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    setSaved(false);
    save.mutate(
      {
        host: host.trim(),
        port: Number(port),
        security,
        ...(user.trim() ? { user: user.trim() } : {}),
        ...(password ? { password } : {}),
        from: from.trim(),
      },
      {
        onSuccess: () => {
          setPassword('');
          setSaved(true);
        },
      },
    );
  };
  const passwordSet = current.data?.passwordSet === true && user.trim() === (current.data.user ?? '');
  return (
    <>
      <p className="muted small">Alerts, morning digests and reports are e-mailed through your own server.</p>
      <form className="form form-row" onSubmit={submit} aria-label="SMTP server">
        <label>
          Host
          <input value={host} onChange={(e) => setHost(e.target.value)} placeholder="smtp.agency.com" />
        </label>
        <label>
          Port
          <input type="number" min={1} max={65535} value={port} onChange={(e) => setPort(e.target.value)} />
        </label>
        <label>
          Security
          <select value={security} onChange={(e) => setSecurity(e.target.value as Security)}>
            <option value="tls">TLS (port 465)</option>
            <option value="starttls">STARTTLS (port 587)</option>
            <option value="none">None</option>
          </select>
        </label>
        <label>
          User
          <input value={user} onChange={(e) => setUser(e.target.value)} autoComplete="off" />
        </label>
        <label>
          Password
          <input
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="new-password"
            placeholder={passwordSet ? 'Saved (leave empty to keep)' : ''}
          />
        </label>
        <label>
          From address
          <input
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            placeholder="AdLens <reports@agency.com>"
          />
        </label>
        <button type="submit" className="button primary" disabled={save.isPending || !host || !from}>
          Save server
        </button>
        <button
          type="button"
          className="button"
          disabled={test.isPending || !current.data}
          onClick={() => {
            setTested(null);
            test.mutate({}, { onSuccess: setTested });
          }}
        >
          Send test e-mail
        </button>
      </form>
      {save.error ? <p className="form-error">{save.error.message}</p> : null}
      {test.error ? <p className="form-error">{test.error.message}</p> : null}
      <div role="status">
        {saved ? <p className="muted small">SMTP server saved.</p> : null}
        {tested ? (
          <p className="muted small">
            {tested.delivered
              ? `Test e-mail sent to ${tested.to}.`
              : `Test e-mail not sent: ${tested.error ?? 'unknown error'}.`}
          </p>
        ) : null}
      </div>
    </>
  );
}

/** Quiet hours for the workspace's alerts and the signed-in user's morning digest. */
export function AlertSchedule(): React.JSX.Element {
  const prefs = useCall('alerts.preferences', {});
  const digest = useCall('alerts.digest', {});
  const setPrefs = useCallMutation('alerts.setPreferences', ['alerts']);
  const setDigest = useCallMutation('alerts.setDigest', ['alerts']);
  const [quiet, setQuiet] = useState<{ from: number | null; to: number | null; timezone: string }>({
    from: null,
    to: null,
    timezone: localZone(),
  });
  const [morning, setMorning] = useState<{ hour: number | null; timezone: string }>({
    hour: null,
    timezone: localZone(),
  });
  const [done, setDone] = useState('');
  useEffect(() => {
    if (prefs.data)
      setQuiet({
        from: prefs.data.quietFrom,
        to: prefs.data.quietTo,
        timezone: prefs.data.quietFrom === null ? localZone() : prefs.data.timezone,
      });
  }, [prefs.data]);
  useEffect(() => {
    if (digest.data)
      setMorning({
        hour: digest.data.hour,
        timezone: digest.data.hour === null ? localZone() : digest.data.timezone,
      });
  }, [digest.data]);
  if (prefs.isPending || digest.isPending) return <Loading />;
  if (prefs.isError) return <ErrorState error={prefs.error} onRetry={() => void prefs.refetch()} />;
  if (digest.isError) return <ErrorState error={digest.error} onRetry={() => void digest.refetch()} />;
  const hourSelect = (label: string, value: number | null, onChange: (h: number | null) => void) => (
    <label>
      {label}
      <select
        value={value === null ? '' : String(value)}
        onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
      >
        <option value="">None</option>
        {HOURS.map((h) => (
          <option key={h} value={h}>
            {hourLabel(h)}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <>
      <form
        className="form form-row"
        aria-label="Quiet hours"
        onSubmit={(e) => {
          e.preventDefault();
          setDone('');
          setPrefs.mutate(
            { quietFrom: quiet.from, quietTo: quiet.to, timezone: quiet.timezone },
            { onSuccess: () => setDone('Quiet hours saved.') },
          );
        }}
      >
        {hourSelect('Quiet from', quiet.from, (from) => setQuiet({ ...quiet, from }))}
        {hourSelect('Quiet until', quiet.to, (to) => setQuiet({ ...quiet, to }))}
        <label>
          Quiet hours time zone
          <input value={quiet.timezone} onChange={(e) => setQuiet({ ...quiet, timezone: e.target.value })} />
        </label>
        <button type="submit" className="button" disabled={setPrefs.isPending}>
          Save quiet hours
        </button>
      </form>
      {setPrefs.error ? <p className="form-error">{setPrefs.error.message}</p> : null}
      <form
        className="form form-row"
        aria-label="Morning digest"
        onSubmit={(e) => {
          e.preventDefault();
          setDone('');
          setDigest.mutate(
            { hour: morning.hour, timezone: morning.timezone },
            { onSuccess: () => setDone('Morning digest saved.') },
          );
        }}
      >
        {hourSelect('My morning digest at', morning.hour, (hour) => setMorning({ ...morning, hour }))}
        <label>
          Digest time zone
          <input
            value={morning.timezone}
            onChange={(e) => setMorning({ ...morning, timezone: e.target.value })}
          />
        </label>
        <button type="submit" className="button" disabled={setDigest.isPending}>
          Save digest
        </button>
      </form>
      {setDigest.error ? <p className="form-error">{setDigest.error.message}</p> : null}
      <p className="muted small" role="status">
        {done}
      </p>
    </>
  );
}
