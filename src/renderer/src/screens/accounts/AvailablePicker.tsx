// Agency access: every ad account a token reaches (the demo platform's when no token is pasted),
// grouped by business, with checkboxes; "Connect selected" connects them in one step and says, per
// account, what was connected and what was refused and why. The rules live in the accounts use cases.
import { useState, type FormEvent } from 'react';
import type { AvailableAccounts, ConnectManyResult } from '../../../../shared/api/available-accounts';
import { useCall, useCallMutation } from '../../api/hooks';
import { ErrorState, Loading } from '../../components/ui';
import { date } from '../../format';

const RELATION_LABEL = { OWNED: 'Owned', CLIENT: 'Client', PERSONAL: 'Personal' } as const;

function Groups(props: {
  found: AvailableAccounts;
  selected: Set<string>;
  toggle: (id: string) => void;
}): React.JSX.Element {
  return (
    <div className="business-groups">
      {props.found.groups.map((group) => (
        <fieldset key={group.business?.id ?? 'own'} className="business-group">
          <legend>{group.business ? group.business.name : 'Own ad accounts'}</legend>
          <ul className="candidate-list">
            {group.accounts.map((a) => (
              <li key={a.platformAccountId}>
                <label className="checkbox-row">
                  <input
                    type="checkbox"
                    disabled={!a.canConnect || a.connected}
                    checked={props.selected.has(a.platformAccountId)}
                    onChange={() => props.toggle(a.platformAccountId)}
                    aria-label={`Select ${a.name}`}
                  />
                  <span>
                    <strong>{a.name}</strong>
                    <span className="muted">
                      {' '}
                      {RELATION_LABEL[a.relation]}
                      {a.relation === 'CLIENT' && a.business ? ` of ${a.business.name}` : ''} ·{' '}
                      {a.platformAccountId} · {a.currency} · {a.timezone} · {a.tasks.join(', ') || 'no role'}
                    </span>
                  </span>
                </label>
                {a.connected ? (
                  <span className="pill pill-muted">Connected</span>
                ) : a.reason ? (
                  <span className="muted" title={a.reason}>
                    Cannot be read: needs Admin, Advertiser or Analyst access
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </fieldset>
      ))}
    </div>
  );
}

function Outcomes(props: { result: ConnectManyResult }): React.JSX.Element {
  return (
    <div className="banner banner-compact" role="status">
      <span>
        <strong>
          {props.result.connected} connected, {props.result.refused} refused.
        </strong>
        <ul>
          {props.result.outcomes
            .filter((o) => o.status === 'refused')
            .map((o) => (
              <li key={o.platformAccountId}>
                {o.platformAccountId}: {o.error?.message}
              </li>
            ))}
        </ul>
      </span>
    </div>
  );
}

export function AvailablePicker(props: { onDone: () => void }): React.JSX.Element {
  const [draft, setDraft] = useState('');
  const [token, setToken] = useState<string | undefined>(undefined);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const args = token ? { token } : {};
  const found = useCall('accounts.available', args);
  const connectMany = useCallMutation('accounts.connectMany', ['accounts', 'campaigns']);
  const settings = useCall('settings.get', {});
  const login = useCallMutation('accounts.facebookLogin', []);
  const canLogIn = settings.data?.host === 'desktop' && Boolean(settings.data.metaApp.appId);
  const toggle = (id: string): void => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const useToken = (e: FormEvent): void => {
    e.preventDefault();
    setSelected(new Set());
    setToken(draft.trim() || undefined);
  };
  const connect = (): void =>
    connectMany.mutate(
      { platformAccountIds: [...selected], ...args },
      {
        onSuccess: (result) => {
          setSelected(new Set());
          if (result.refused === 0) props.onDone();
        },
      },
    );
  return (
    <div className="available-picker">
      <form className="form form-inline" onSubmit={useToken}>
        <label>
          Access token
          <input
            type="password"
            autoComplete="off"
            placeholder="Empty: the demo platform"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
          />
        </label>
        <button type="submit" className="button">
          List accounts
        </button>
        {canLogIn ? (
          <button
            type="button"
            className="button"
            disabled={login.isPending}
            onClick={() =>
              login.mutate(
                {},
                {
                  onSuccess: (result) => {
                    setSelected(new Set());
                    setDraft('');
                    setToken(result.token);
                  },
                },
              )
            }
          >
            {login.isPending ? 'Waiting for the browser…' : 'Log in with Facebook'}
          </button>
        ) : null}
        {login.error ? <span className="form-error">{login.error.message}</span> : null}
      </form>
      {found.isPending ? (
        <Loading label="Listing the ad accounts this token reaches…" />
      ) : found.isError ? (
        <ErrorState error={found.error} onRetry={() => void found.refetch()} />
      ) : (
        <>
          <p className="hint">
            {found.data.total} ad accounts in {found.data.groups.length} groups
            {found.data.token.type === 'SYSTEM_USER' ? ' · system user token' : ''}
            {found.data.token.expiresAt ? ` · token expires ${date(found.data.token.expiresAt)}` : ''}
          </p>
          {found.data.warnings.map((w) => (
            <p key={w} className="hint">
              {w}
            </p>
          ))}
          <Groups found={found.data} selected={selected} toggle={toggle} />
          <button
            type="button"
            className="button primary"
            disabled={selected.size === 0 || connectMany.isPending}
            onClick={connect}
          >
            {connectMany.isPending ? 'Connecting…' : `Connect selected (${selected.size})`}
          </button>
        </>
      )}
      {connectMany.data ? <Outcomes result={connectMany.data} /> : null}
      {connectMany.error ? (
        <p className="form-error" role="alert">
          {connectMany.error.message}
        </p>
      ) : null}
    </div>
  );
}
