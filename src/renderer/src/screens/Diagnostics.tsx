// Diagnostics: list with filters, and "run a diagnostic" for an account or one of its campaigns.
import { useState, type FormEvent } from 'react';
import { useCall, useCallMutation } from '../api/hooks';
import {
  Empty,
  ErrorState,
  FilterSelect,
  Loading,
  PageHeader,
  RISK_OPTIONS,
  RiskBadge,
  StatusPill,
} from '../components/ui';
import { dateTime } from '../format';
import { href, navigate, setQuery, useRoute } from '../router';

const PAGE_SIZE = 25;

const DIAGNOSTIC_STATUS_OPTIONS = [
  { value: 'completed', label: 'Completed' },
  { value: 'running', label: 'Running' },
  { value: 'pending', label: 'Pending' },
  { value: 'failed', label: 'Failed' },
];

function RunPanel(props: { onClose: () => void }): React.JSX.Element {
  const accounts = useCall('accounts.list', {});
  const [accountId, setAccountId] = useState('');
  const busiest = [...(accounts.data ?? [])].sort((a, b) => b.totalSpendLast30d - a.totalSpendLast30d)[0];
  const chosen = accountId || busiest?.id || '';
  const campaigns = useCall(
    'campaigns.list',
    { accountId: chosen, range: { days: 7 } },
    { enabled: Boolean(chosen) },
  );
  const [campaignId, setCampaignId] = useState('');
  const [days, setDays] = useState(7);
  const run = useCallMutation('diagnostics.run', ['diagnostics']);
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const to = new Date();
    const from = new Date(to.getTime() - (days - 1) * 86_400_000);
    run.mutate(
      {
        accountId: chosen,
        campaignId: campaignId || null,
        dateFrom: from.toISOString().slice(0, 10),
        dateTo: to.toISOString().slice(0, 10),
      },
      { onSuccess: (created) => navigate(`/diagnostics/${created.id}`) },
    );
  };
  const synced = (campaigns.data?.items ?? []).filter((c) => c.synced).sort((a, b) => b.spend - a.spend);
  return (
    <section className="panel" aria-labelledby="run-title">
      <div className="panel-head">
        <h2 id="run-title">Run a diagnostic</h2>
        <button type="button" className="link-button" onClick={props.onClose}>
          Close
        </button>
      </div>
      <form className="form form-row" onSubmit={submit}>
        <label>
          Ad account
          <select
            value={chosen}
            onChange={(e) => {
              setAccountId(e.target.value);
              setCampaignId('');
            }}
            required
          >
            {(accounts.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Campaign
          <select value={campaignId} onChange={(e) => setCampaignId(e.target.value)}>
            <option value="">Whole account (every campaign with delivery)</option>
            {synced.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Period
          <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
            <option value={7}>Last 7 days</option>
            <option value={14}>Last 14 days</option>
            <option value={30}>Last 30 days</option>
          </select>
        </label>
        <button type="submit" className="button primary" disabled={!chosen || run.isPending}>
          {run.isPending ? 'Starting…' : 'Run diagnostic'}
        </button>
      </form>
      {run.error ? (
        <p className="form-error" role="alert">
          {run.error.message}
        </p>
      ) : null}
    </section>
  );
}

export default function Diagnostics(): React.JSX.Element {
  const route = useRoute();
  const page = Number(route.query.get('page') ?? 1);
  const risk = route.query.get('risk') ?? '';
  const status = route.query.get('status') ?? '';
  const accountId = route.query.get('account') ?? '';
  const [running, setRunning] = useState(route.query.get('run') === '1');
  const accounts = useCall('accounts.list', {});
  const list = useCall(
    'diagnostics.list',
    {
      page,
      pageSize: PAGE_SIZE,
      ...(risk ? { riskLevel: risk as 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL' } : {}),
      ...(status ? { status: status as 'pending' | 'running' | 'completed' | 'failed' } : {}),
      ...(accountId ? { accountId } : {}),
    },
    { placeholderData: (prev) => prev },
  );
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / PAGE_SIZE)) : 1;
  return (
    <>
      <PageHeader
        title="Diagnostics"
        subtitle="Findings, risk and recommendations per campaign or account."
        actions={
          <button type="button" className="button primary" onClick={() => setRunning(true)}>
            Run diagnostic
          </button>
        }
      />
      {running ? <RunPanel onClose={() => setRunning(false)} /> : null}
      <div className="toolbar">
        <FilterSelect
          label="Account"
          anyLabel="All accounts"
          value={accountId}
          options={(accounts.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
          onChange={(account) => setQuery(route, { account, page: null })}
        />
        <FilterSelect
          label="Risk"
          anyLabel="Any risk"
          value={risk}
          options={RISK_OPTIONS}
          onChange={(risk) => setQuery(route, { risk, page: null })}
        />
        <FilterSelect
          label="Status"
          anyLabel="Any status"
          value={status}
          options={DIAGNOSTIC_STATUS_OPTIONS}
          onChange={(status) => setQuery(route, { status, page: null })}
        />
      </div>
      {list.isPending ? (
        <Loading label="Loading diagnostics…" />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <Empty
          title={risk || status || accountId ? 'No diagnostic matches these filters.' : 'No diagnostics yet.'}
        >
          Run one for an account or a campaign to see its findings here.
        </Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="data-table static">
              <thead>
                <tr>
                  <th scope="col">Campaign or account</th>
                  <th scope="col">Risk</th>
                  <th scope="col">Status</th>
                  <th scope="col">Summary</th>
                  <th scope="col" className="num">
                    Issues
                  </th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((d) => (
                  <tr key={d.id}>
                    <td>
                      <a href={href(`/diagnostics/${d.id}`)}>
                        {d.campaignName ?? `Whole account: ${d.accountName}`}
                      </a>
                      {d.campaignName ? <div className="small muted">{d.accountName}</div> : null}
                    </td>
                    <td>
                      {d.status === 'completed' ? (
                        <RiskBadge level={d.riskLevel} />
                      ) : (
                        <span className="muted">–</span>
                      )}
                    </td>
                    <td>
                      <StatusPill status={d.status} />
                    </td>
                    <td className="summary-cell">
                      <div className="clamp-2" title={d.summary ?? undefined}>
                        {d.summary ?? <span className="muted">Analysing…</span>}
                      </div>
                    </td>
                    <td className="num">{d.issuesDetected}</td>
                    <td>{dateTime(d.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="pager" aria-label="Pages">
            <button
              type="button"
              className="button"
              disabled={page <= 1}
              onClick={() => setQuery(route, { page: String(page - 1) })}
            >
              Previous
            </button>
            <span>
              Page {page} of {pages} · {list.data.total} diagnostics
            </span>
            <button
              type="button"
              className="button"
              disabled={page >= pages}
              onClick={() => setQuery(route, { page: String(page + 1) })}
            >
              Next
            </button>
          </div>
        </>
      )}
    </>
  );
}
