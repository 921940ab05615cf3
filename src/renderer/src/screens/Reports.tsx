// Reports: create (account, period, up to 20 campaigns, format, white-label), list with live status,
// and download (browser) or save through the native dialog (desktop).
import { useMemo, useState, type FormEvent } from 'react';
import type { ReportView, WhiteLabel } from '../../../shared/ipc';
import { useCall, useCallMutation } from '../api/hooks';
import { isDesktop } from '../api/transport';
import { Empty, ErrorState, Loading, PageHeader, RiskBadge, StatusPill } from '../components/ui';
import { date, dateTime, money } from '../format';

const MAX_CAMPAIGNS = 20;
const FORMAT_LABEL = { pdf: 'PDF', markdown: 'Markdown', json: 'JSON' } as const;

const isoDaysAgo = (days: number): string =>
  new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

function CreateReport(props: { onClose: () => void }): React.JSX.Element {
  const accounts = useCall('accounts.list', {});
  const settings = useCall('settings.get', {});
  const [accountId, setAccountId] = useState('');
  const chosen = accountId || accounts.data?.[0]?.id || '';
  const campaigns = useCall(
    'campaigns.list',
    { accountId: chosen, range: { days: 30 } },
    { enabled: Boolean(chosen) },
  );
  const [title, setTitle] = useState('Weekly performance');
  const [dateFrom, setDateFrom] = useState(isoDaysAgo(7));
  const [dateTo, setDateTo] = useState(isoDaysAgo(1));
  const [format, setFormat] = useState<'pdf' | 'markdown' | 'json'>('pdf');
  const [picked, setPicked] = useState<string[]>([]);
  const [filter, setFilter] = useState('');
  const [useWhiteLabel, setUseWhiteLabel] = useState(false);
  const [whiteLabel, setWhiteLabel] = useState<WhiteLabel | null>(null);
  const create = useCallMutation('reports.create', ['reports']);
  const allowed = settings.data?.workspace.whiteLabelAllowed ?? false;
  const brand = whiteLabel ?? settings.data?.whiteLabelDefaults ?? { companyName: '' };

  const options = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return (campaigns.data?.items ?? [])
      .filter((c) => !needle || c.name.toLowerCase().includes(needle))
      .sort((a, b) => b.spend - a.spend);
  }, [campaigns.data, filter]);

  const toggle = (id: string): void =>
    setPicked((current) =>
      current.includes(id)
        ? current.filter((x) => x !== id)
        : current.length >= MAX_CAMPAIGNS
          ? current
          : [...current, id],
    );

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    create.mutate(
      {
        accountId: chosen,
        title,
        dateFrom,
        dateTo,
        format,
        ...(picked.length > 0 ? { campaignIds: picked } : {}),
        ...(useWhiteLabel && allowed && brand.companyName ? { whiteLabel: brand } : {}),
      },
      { onSuccess: props.onClose },
    );
  };

  return (
    <section className="panel" aria-labelledby="create-report-title">
      <div className="panel-head">
        <h2 id="create-report-title">New report</h2>
        <button type="button" className="link-button" onClick={props.onClose}>
          Close
        </button>
      </div>
      <form className="form report-form" onSubmit={submit}>
        <div className="form-row">
          <label>
            Title
            <input required maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} />
          </label>
          <label>
            Ad account
            <select
              value={chosen}
              onChange={(e) => {
                setAccountId(e.target.value);
                setPicked([]);
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
            From
            <input
              type="date"
              required
              value={dateFrom}
              max={dateTo}
              onChange={(e) => setDateFrom(e.target.value)}
            />
          </label>
          <label>
            To
            <input
              type="date"
              required
              value={dateTo}
              min={dateFrom}
              onChange={(e) => setDateTo(e.target.value)}
            />
          </label>
        </div>
        <fieldset className="campaign-picker">
          <legend>
            Campaigns{' '}
            <span className="muted">
              (
              {picked.length === 0
                ? 'none picked: the top 20 by spend'
                : `${picked.length} of ${MAX_CAMPAIGNS}`}
              )
            </span>
          </legend>
          <input
            type="search"
            aria-label="Filter campaigns"
            placeholder="Filter campaigns"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
          <div className="picker-list">
            {campaigns.isPending && chosen ? (
              <Loading />
            ) : options.length === 0 ? (
              <p className="muted">No campaign.</p>
            ) : (
              options.map((c) => (
                <label key={c.id} className="check">
                  <input
                    type="checkbox"
                    checked={picked.includes(c.id)}
                    disabled={!picked.includes(c.id) && picked.length >= MAX_CAMPAIGNS}
                    onChange={() => toggle(c.id)}
                  />
                  <span>{c.name}</span>
                  <span className="muted">{money(c.spend, c.currency, 0)}</span>
                </label>
              ))
            )}
          </div>
          {picked.length >= MAX_CAMPAIGNS ? (
            <p className="hint">A report covers at most {MAX_CAMPAIGNS} campaigns.</p>
          ) : null}
        </fieldset>
        <fieldset className="format-picker">
          <legend>Format</legend>
          {(['pdf', 'markdown', 'json'] as const).map((f) => (
            <label key={f} className="check">
              <input
                type="radio"
                name="format"
                value={f}
                checked={format === f}
                onChange={() => setFormat(f)}
              />
              {FORMAT_LABEL[f]}
            </label>
          ))}
        </fieldset>
        <fieldset className="white-label">
          <legend>White-label</legend>
          {allowed ? (
            <>
              <label className="check">
                <input
                  type="checkbox"
                  checked={useWhiteLabel}
                  onChange={(e) => setUseWhiteLabel(e.target.checked)}
                />
                Brand this report as your agency
              </label>
              {useWhiteLabel ? (
                <div className="form-row">
                  <label>
                    Company name
                    <input
                      required
                      value={brand.companyName ?? ''}
                      onChange={(e) => setWhiteLabel({ ...brand, companyName: e.target.value })}
                    />
                  </label>
                  <label>
                    Primary colour
                    <input
                      type="color"
                      value={brand.primaryColor ?? '#2f5fd0'}
                      onChange={(e) => setWhiteLabel({ ...brand, primaryColor: e.target.value })}
                    />
                  </label>
                  <label>
                    Footer text
                    <input
                      value={brand.footerText ?? ''}
                      onChange={(e) => setWhiteLabel({ ...brand, footerText: e.target.value })}
                    />
                  </label>
                </div>
              ) : null}
            </>
          ) : (
            <p className="muted">White-label reports come with the Agency plan.</p>
          )}
        </fieldset>
        {create.error ? (
          <p className="form-error" role="alert">
            {create.error.message}
          </p>
        ) : null}
        <div>
          <button type="submit" className="button primary" disabled={!chosen || create.isPending}>
            {create.isPending ? 'Starting…' : 'Generate report'}
          </button>
        </div>
      </form>
    </section>
  );
}

function DownloadButton(props: { report: ReportView }): React.JSX.Element {
  const [message, setMessage] = useState<string | null>(null);
  const { report } = props;
  if (report.status !== 'completed') return <span className="muted">–</span>;
  const desktop = isDesktop() ? window.adlens : undefined;
  if (desktop) {
    return (
      <span>
        <button
          type="button"
          className="button"
          onClick={async () => {
            const result = await desktop.saveReport(report.id);
            setMessage(result.ok ? (result.value.path ? 'Saved.' : null) : result.error.message);
          }}
        >
          Save…
        </button>
        {message ? <span className="muted small"> {message}</span> : null}
      </span>
    );
  }
  return (
    <a
      className="button"
      href={`/bridge/reports/${report.id}/file`}
      download
      aria-label={`Download ${report.title}`}
    >
      Download
    </a>
  );
}

export default function Reports(): React.JSX.Element {
  const [creating, setCreating] = useState(false);
  const [status, setStatus] = useState('');
  const accounts = useCall('accounts.list', {});
  const currencyOf = (accountId: string): string =>
    accounts.data?.find((a) => a.id === accountId)?.currency ?? 'USD';
  const list = useCall('reports.list', {
    page: 1,
    pageSize: 100,
    ...(status ? { status: status as ReportView['status'] } : {}),
  });
  return (
    <>
      <PageHeader
        title="Reports"
        subtitle="Performance reports in PDF, Markdown or JSON."
        actions={
          <button type="button" className="button primary" onClick={() => setCreating(true)}>
            New report
          </button>
        }
      />
      {creating ? <CreateReport onClose={() => setCreating(false)} /> : null}
      <div className="toolbar">
        <label className="field-inline">
          <span>Status</span>
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any status</option>
            <option value="completed">Completed</option>
            <option value="generating">Generating</option>
            <option value="pending">Scheduled</option>
            <option value="failed">Failed</option>
          </select>
        </label>
      </div>
      {list.isPending ? (
        <Loading label="Loading reports…" />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <Empty title="No reports yet.">Create one to share a period's performance with a client.</Empty>
      ) : (
        <div className="table-wrap">
          <table className="data-table static">
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Status</th>
                <th scope="col">Format</th>
                <th scope="col">Period</th>
                <th scope="col" className="num">
                  Spend
                </th>
                <th scope="col">Risk</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">File</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((r) => (
                <tr key={r.id}>
                  <td>
                    {r.title}
                    <div className="muted small">{r.campaignIds.length} campaigns</div>
                  </td>
                  <td>
                    <StatusPill status={r.status} label={r.status === 'pending' ? 'Scheduled' : undefined} />
                    {r.error ? <div className="form-error small">{r.error.message}</div> : null}
                  </td>
                  <td>{FORMAT_LABEL[r.format]}</td>
                  <td>
                    {date(r.dateRange.from)} – {date(r.dateRange.to)}
                  </td>
                  <td className="num">
                    {r.summary ? money(r.summary.totalSpend, currencyOf(r.accountId)) : '–'}
                  </td>
                  <td>{r.summary ? <RiskBadge level={r.summary.overallRiskLevel} /> : '–'}</td>
                  <td>{dateTime(r.createdAt)}</td>
                  <td>
                    <DownloadButton report={r} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
