// Alerts in Settings: add a webhook (its signing secret shown once) or an e-mail destination with the
// lowest risk it receives, send a test, remove one. SMTP, quiet hours and the digest are in
// settings/Email.tsx; mutes are set with `npm run cli -- alerts mute`.
import { useState, type FormEvent } from 'react';
import type { HandlerResult } from '../../../../shared/ipc';
import { useCall, useCallMutation } from '../../api/hooks';
import { Empty, ErrorState, Loading } from '../../components/ui';
import { relative, titleCase } from '../../format';

type Risk = 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';

export function Alerts(): React.JSX.Element {
  const list = useCall('alerts.list', {});
  const add = useCallMutation('alerts.add', ['alerts']);
  const remove = useCallMutation('alerts.remove', ['alerts']);
  const test = useCallMutation('alerts.test', ['alerts']);
  const [kind, setKind] = useState<'webhook' | 'email'>('webhook');
  const [target, setTarget] = useState('');
  const [minRisk, setMinRisk] = useState<Risk>('HIGH');
  const [slack, setSlack] = useState(false);
  const [created, setCreated] = useState<HandlerResult<'alerts.add'> | null>(null);
  const [tested, setTested] = useState<HandlerResult<'alerts.test'> | null>(null);
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    add.mutate(
      { kind, target, minRisk, ...(kind === 'webhook' && slack ? { slack: true } : {}) },
      {
        onSuccess: (value) => {
          setCreated(value);
          setTarget('');
        },
      },
    );
  };
  return (
    <>
      {created?.secret ? (
        <div className="banner banner-ok key-once" role="status">
          <div>
            <strong>Copy the signing secret now: it will not be shown again.</strong>
            <code className="secret" data-testid="new-webhook-secret">
              {created.secret}
            </code>
            <span className="muted small">
              Each call carries <code>AdLens-Signature: t=…,v1=…</code>, the HMAC-SHA256 of{' '}
              <code>t.body</code> under this secret.
            </span>
          </div>
          <button type="button" className="link-button" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      ) : null}
      <form className="form form-row" onSubmit={submit}>
        <label>
          Send to
          <select value={kind} onChange={(e) => setKind(e.target.value as 'webhook' | 'email')}>
            <option value="webhook">Webhook</option>
            <option value="email">E-mail</option>
          </select>
        </label>
        <label>
          {kind === 'webhook' ? 'URL' : 'Address'}
          <input
            placeholder={kind === 'webhook' ? 'https://hooks.example.com/adlens' : 'analyst@agency.com'}
            value={target}
            onChange={(e) => setTarget(e.target.value)}
          />
        </label>
        <label>
          From risk
          <select value={minRisk} onChange={(e) => setMinRisk(e.target.value as Risk)}>
            {(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const).map((r) => (
              <option key={r} value={r}>
                {titleCase(r)}
              </option>
            ))}
          </select>
        </label>
        {kind === 'webhook' ? (
          <label className="checkbox">
            <input type="checkbox" checked={slack} onChange={(e) => setSlack(e.target.checked)} />
            Slack format
          </label>
        ) : null}
        <button type="submit" className="button primary" disabled={add.isPending || target === ''}>
          Add destination
        </button>
      </form>
      {add.error ? <p className="form-error">{add.error.message}</p> : null}
      {tested ? (
        <p className="muted small" role="status">
          {tested.delivered
            ? `Test delivered${tested.httpStatus ? ` (HTTP ${tested.httpStatus})` : ''}.`
            : `Test not delivered: ${tested.error ?? 'unknown error'}.`}
        </p>
      ) : null}
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <Empty title="No alert destinations yet." />
      ) : (
        <table className="data-table static">
          <thead>
            <tr>
              <th scope="col">Destination</th>
              <th scope="col">Kind</th>
              <th scope="col">From risk</th>
              <th scope="col">Last alert</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((d) => (
              <tr key={d.id}>
                <td>
                  <code>{d.target}</code>
                </td>
                <td>
                  {d.kind === 'webhook' ? (d.format === 'slack' ? 'Webhook (Slack)' : 'Webhook') : 'E-mail'}
                </td>
                <td>{titleCase(d.minRisk)}</td>
                <td>
                  {d.lastDelivery ? `${relative(d.lastDelivery.at)} · ${d.lastDelivery.status}` : 'Never'}
                </td>
                <td>
                  <button
                    type="button"
                    className="button subtle"
                    disabled={test.isPending}
                    onClick={() => test.mutate({ id: d.id }, { onSuccess: setTested })}
                  >
                    Test
                  </button>{' '}
                  <button
                    type="button"
                    className="button subtle danger"
                    aria-label={`Remove ${d.target}`}
                    onClick={() => {
                      if (window.confirm(`Remove ${d.target}? It gets no more alerts.`))
                        remove.mutate({ id: d.id });
                    }}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
