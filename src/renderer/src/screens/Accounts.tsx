// Accounts: connection and account status, sync progress, sync now, connect (demo, a token's business
// accounts in one step, or a pasted token), the token's expiry and a warning before it lapses,
// disconnect (confirmed first), and a clear path back when a token expired or an account was
// disconnected (a demo account reconnects with the demo token; any other one with a pasted token).
import { useState, type FormEvent } from 'react';
import type { AccountView } from '../../../shared/ipc';
import { useSyncProgress } from '../api/events';
import { useCall, useCallMutation } from '../api/hooks';
import { Empty, ErrorState, Loading, PageHeader, ProgressBar, StatusPill } from '../components/ui';
import { date, money, relative, upcoming } from '../format';
import { AvailablePicker } from './accounts/AvailablePicker';
import { GoalForm } from './goals/GoalForm';
import { DisconnectButton } from './accounts/DisconnectButton';

function ConnectPanel(props: { onClose: () => void; reauth?: AccountView }): React.JSX.Element {
  const [tab, setTab] = useState<'demo' | 'business' | 'token'>(props.reauth ? 'token' : 'demo');
  const candidates = useCall('accounts.demoCandidates', {}, { enabled: tab === 'demo' && !props.reauth });
  const connectDemo = useCallMutation('accounts.connectDemo', ['accounts', 'campaigns']);
  const connectToken = useCallMutation('accounts.connectToken', ['accounts', 'campaigns']);
  const reconnect = useCallMutation('accounts.reconnect', ['accounts', 'campaigns']);
  const reauth = props.reauth;
  const [platformAccountId, setPlatformAccountId] = useState(props.reauth?.platformAccountId ?? '');
  const [token, setToken] = useState('');
  const submitToken = (e: FormEvent): void => {
    e.preventDefault();
    if (reauth) reconnect.mutate({ accountId: reauth.id, token }, { onSuccess: props.onClose });
    else
      connectToken.mutate(
        { platformAccountId: platformAccountId.trim(), token },
        { onSuccess: props.onClose },
      );
  };
  return (
    <section className="panel" aria-labelledby="connect-title">
      <div className="panel-head">
        <h2 id="connect-title">
          {reauth
            ? `${reauth.connectionStatus === 'token_expired' ? 'Re-authenticate' : 'Reconnect'} ${reauth.name}`
            : 'Connect an ad account'}
        </h2>
        <button type="button" className="link-button" onClick={props.onClose}>
          Close
        </button>
      </div>
      {props.reauth ? null : (
        <div className="tabs" role="tablist" aria-label="How to connect">
          <button type="button" role="tab" aria-selected={tab === 'demo'} onClick={() => setTab('demo')}>
            Demo account
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'business'}
            onClick={() => setTab('business')}
          >
            Business accounts
          </button>
          <button type="button" role="tab" aria-selected={tab === 'token'} onClick={() => setTab('token')}>
            Paste a token
          </button>
        </div>
      )}
      {tab === 'business' && !props.reauth ? (
        <AvailablePicker onDone={props.onClose} />
      ) : tab === 'demo' && !props.reauth ? (
        candidates.isPending ? (
          <Loading label="Asking the demo platform…" />
        ) : candidates.isError ? (
          <ErrorState error={candidates.error} onRetry={() => void candidates.refetch()} />
        ) : candidates.data.length === 0 ? (
          <Empty title="Every demo account is already connected." />
        ) : (
          <ul className="candidate-list">
            {candidates.data.map((c) => (
              <li key={c.platformAccountId}>
                <div>
                  <strong>{c.name}</strong>
                  <span className="muted">
                    {c.businessName} · {c.platformAccountId} · {c.currency}
                  </span>
                </div>
                {c.canConnect ? (
                  <button
                    type="button"
                    className="button"
                    disabled={connectDemo.isPending}
                    onClick={() =>
                      connectDemo.mutate(
                        { platformAccountId: c.platformAccountId },
                        { onSuccess: props.onClose },
                      )
                    }
                  >
                    Connect {c.name}
                  </button>
                ) : (
                  <span
                    className="muted"
                    title="Reading needs Admin, Advertiser or Analyst access on the account"
                  >
                    Needs Admin, Advertiser or Analyst access
                  </span>
                )}
              </li>
            ))}
          </ul>
        )
      ) : (
        <form className="form form-narrow" onSubmit={submitToken}>
          {reauth?.mode === 'test' ? (
            <div className="demo-reconnect">
              <button
                type="button"
                className="button primary"
                disabled={reconnect.isPending}
                onClick={() => reconnect.mutate({ accountId: reauth.id }, { onSuccess: props.onClose })}
              >
                {reconnect.isPending ? 'Reconnecting…' : 'Reconnect with the demo token'}
              </button>
              <p className="hint">A demo account needs no token of its own. Or paste one below.</p>
            </div>
          ) : null}
          <label>
            Ad account ID
            <input
              required
              placeholder="act_1234567890"
              pattern="act_[0-9]+"
              value={platformAccountId}
              readOnly={Boolean(props.reauth)}
              onChange={(e) => setPlatformAccountId(e.target.value)}
            />
          </label>
          <label>
            Access token
            <input
              required
              type="password"
              autoComplete="off"
              placeholder="Long-lived or System User token"
              value={token}
              onChange={(e) => setToken(e.target.value)}
            />
          </label>
          <p className="hint">Read-only access is enough. The token is stored encrypted on this machine.</p>
          <button
            type="submit"
            className={reauth?.mode === 'test' ? 'button' : 'button primary'}
            disabled={connectToken.isPending || reconnect.isPending}
          >
            {connectToken.isPending || reconnect.isPending
              ? 'Connecting…'
              : reauth
                ? 'Re-authenticate with this token'
                : 'Connect'}
          </button>
        </form>
      )}
      {connectDemo.error || connectToken.error || reconnect.error ? (
        <p className="form-error" role="alert">
          {(connectDemo.error ?? connectToken.error ?? reconnect.error)?.message}
        </p>
      ) : null}
    </section>
  );
}

function AccountCard(props: { account: AccountView; onReauth: (a: AccountView) => void }): React.JSX.Element {
  const { account } = props;
  const live = useSyncProgress(account.id);
  const sync = useCallMutation('accounts.sync', ['accounts']);
  const syncing = Boolean(live) || account.sync.running;
  const percent = live?.percent ?? account.sync.percent;
  const broken = account.connectionStatus !== 'active';
  return (
    <article className={`account-card${broken ? ' account-broken' : ''}`} aria-label={account.name}>
      {broken ? (
        <div className="banner banner-bad banner-compact" role="alert">
          <span>
            <strong>
              {account.connectionStatus === 'token_expired'
                ? 'Access token expired.'
                : 'Account disconnected.'}
            </strong>{' '}
            Syncing has stopped; past diagnostics and reports stay available.
            {account.statusReason ? (
              <details className="reason">
                <summary>Details</summary>
                {account.statusReason}
              </details>
            ) : null}
          </span>
          <button type="button" className="button" onClick={() => props.onReauth(account)}>
            {account.connectionStatus === 'token_expired' ? 'Re-authenticate' : 'Reconnect'}
          </button>
        </div>
      ) : null}
      {!broken && account.tokenWarning ? (
        <div className="banner banner-warn banner-compact" role="alert">
          <span>
            <strong>Access token expiring.</strong> {account.tokenWarning}
          </span>
          <button type="button" className="button" onClick={() => props.onReauth(account)}>
            Re-authenticate
          </button>
        </div>
      ) : null}
      <div className="account-head">
        <div>
          <h2>{account.name}</h2>
          <p className="muted">
            {account.businessName || 'No business'} · {account.platformAccountId} · {account.currency} ·{' '}
            {account.timezone}
          </p>
        </div>
        <div className="account-badges">
          {account.mode === 'test' ? <span className="pill pill-muted">Demo</span> : null}
          <StatusPill
            status={account.connectionStatus}
            label={`Connection: ${account.connectionStatus.replace('_', ' ')}`}
          />
          <StatusPill status={account.status} label={`Account: ${account.status}`} />
        </div>
      </div>
      <dl className="stats">
        <div>
          <dt>Campaigns</dt>
          <dd>
            {account.campaignCount} <span className="muted">({account.activeCampaignCount} active)</span>
          </dd>
        </div>
        <div>
          <dt>Spend, last 30 days</dt>
          <dd>{money(account.totalSpendLast30d, account.currency)}</dd>
        </div>
        <div>
          <dt>Last synced</dt>
          <dd title={account.lastSyncedAt ?? undefined}>{relative(account.lastSyncedAt)}</dd>
        </div>
        <div>
          <dt>Next sync</dt>
          <dd title={account.sync.nextSyncAt ?? undefined}>{upcoming(account.sync.nextSyncAt)}</dd>
        </div>
        <div>
          <dt>Connected</dt>
          <dd>{date(account.connectedAt)}</dd>
        </div>
        {account.tokenExpiresAt ? (
          <div>
            <dt>Token expires</dt>
            <dd title={account.tokenExpiresAt}>{date(account.tokenExpiresAt)}</dd>
          </div>
        ) : null}
      </dl>
      {account.connectionStatus !== 'disconnected' ? <AccountGoal account={account} /> : null}
      <div className="account-foot">
        {syncing ? (
          <div className="sync-progress">
            <ProgressBar percent={percent} label={`Sync progress for ${account.name}`} />
            <span className="muted">
              Syncing… {Math.round(percent)}% {live?.phase ? `· ${live.phase}` : ''}
            </span>
          </div>
        ) : (
          <>
            {account.sync.pausedUntil && !broken ? (
              <span className="muted">
                Paused by Meta&apos;s rate limit until{' '}
                {new Date(account.sync.pausedUntil).toLocaleTimeString([], {
                  hour: '2-digit',
                  minute: '2-digit',
                })}
                ; it resumes by itself.
              </span>
            ) : account.sync.lastError && !broken ? (
              <span className="form-error">Last sync failed: {account.sync.lastError.message}</span>
            ) : (
              <span className="muted">
                {broken ? 'Showing data up to the last successful sync.' : 'Up to date as of the last sync.'}
              </span>
            )}
            <button
              type="button"
              className="button"
              disabled={broken || sync.isPending}
              onClick={() => sync.mutate({ accountId: account.id })}
              aria-label={`Sync ${account.name} now`}
            >
              Sync now
            </button>
          </>
        )}
        {account.connectionStatus !== 'disconnected' ? <DisconnectButton account={account} /> : null}
        {sync.error ? (
          <span className="form-error" role="alert">
            {sync.error.message}
          </span>
        ) : null}
      </div>
    </article>
  );
}

/** The account's goal beside its last 30 days' CPA and ROAS. */
function AccountGoal(props: { account: AccountView }): React.JSX.Element {
  const { account } = props;
  const summary = useCall('insights.summary', { accountId: account.id, range: { days: 30 } });
  return (
    <GoalForm
      accountId={account.id}
      currency={account.currency}
      actual={{ cpa: summary.data?.totals.cpa ?? null, roas: summary.data?.totals.roas ?? null }}
      actualLabel="last 30 days"
    />
  );
}

export default function Accounts(): React.JSX.Element {
  const accounts = useCall('accounts.list', {});
  const [panel, setPanel] = useState<{ reauth?: AccountView } | null>(null);
  return (
    <>
      <PageHeader
        title="Accounts"
        subtitle="Meta ad accounts connected read-only to this workspace."
        actions={
          <button type="button" className="button primary" onClick={() => setPanel({})}>
            Connect account
          </button>
        }
      />
      {panel ? (
        <ConnectPanel key={panel.reauth?.id ?? 'new'} reauth={panel.reauth} onClose={() => setPanel(null)} />
      ) : null}
      {accounts.data && accounts.data.some((a) => a.connectionStatus !== 'active') ? (
        <div className="banner banner-warn broken-summary" role="status">
          <span>
            <strong>
              {accounts.data.filter((a) => a.connectionStatus !== 'active').length} of {accounts.data.length}{' '}
              accounts need attention.
            </strong>{' '}
            Reconnect or re-authenticate them to resume syncing.
          </span>
        </div>
      ) : null}
      {accounts.isPending ? (
        <Loading label="Loading accounts…" />
      ) : accounts.isError ? (
        <ErrorState error={accounts.error} onRetry={() => void accounts.refetch()} />
      ) : accounts.data.length === 0 ? (
        <Empty title="No ad accounts yet.">
          Connect a demo account to explore AdLens, or paste a token for a real one.
        </Empty>
      ) : (
        <div className="account-list">
          {[...accounts.data]
            .sort((a, b) => Number(a.connectionStatus === 'active') - Number(b.connectionStatus === 'active'))
            .map((a) => (
              <AccountCard key={a.id} account={a} onReauth={(account) => setPanel({ reauth: account })} />
            ))}
        </div>
      )}
    </>
  );
}
