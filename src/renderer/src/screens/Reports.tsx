// Reports: create once or on a weekly/monthly schedule, the recurring reports with cancel, the list
// with live status (scheduled runs with their due time), and download (browser) or save through the
// native dialog (desktop).
import { useState } from 'react';
import type { ReportScheduleView, ReportView } from '../../../shared/ipc';
import { useCall } from '../api/hooks';
import { isDesktop } from '../api/transport';
import { Empty, ErrorState, Loading, PageHeader, RiskBadge, StatusPill } from '../components/ui';
import { date, dateTime, money } from '../format';
import { CreateReport } from './reports/CreateReport';
import { CADENCE_LABEL, dueTime, FORMAT_LABEL } from './reports/labels';
import { Schedules } from './reports/Schedules';

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
  const [scheduled, setScheduled] = useState<ReportScheduleView | null>(null);
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
        subtitle="Performance reports in PDF, Markdown or JSON, once or every week or month."
        actions={
          <button
            type="button"
            className="button primary"
            onClick={() => {
              setCreating(true);
              setScheduled(null);
            }}
          >
            New report
          </button>
        }
      />
      {creating ? (
        <CreateReport
          onClose={() => setCreating(false)}
          onScheduled={(schedule) => {
            setCreating(false);
            setScheduled(schedule);
          }}
        />
      ) : null}
      {scheduled ? (
        <div className="banner banner-ok" role="status">
          <span>
            <strong>
              {CADENCE_LABEL[scheduled.cadence]} report “{scheduled.title}” scheduled.
            </strong>{' '}
            Next run: {dueTime(scheduled.nextRunAt)}.
          </span>
          <button type="button" className="link-button" onClick={() => setScheduled(null)}>
            Dismiss
          </button>
        </div>
      ) : null}
      <Schedules />
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
                    <div className="muted small">
                      {r.campaignIds.length > 0
                        ? `${r.campaignIds.length} campaigns`
                        : 'Top 20 campaigns by spend'}
                    </div>
                  </td>
                  <td>
                    <StatusPill status={r.status} label={r.status === 'pending' ? 'Scheduled' : undefined} />
                    {r.status === 'pending' && r.dueAt ? (
                      <div className="muted small">Due {dueTime(r.dueAt)}</div>
                    ) : null}
                    {r.error ? <div className="form-error small">{r.error.message}</div> : null}
                    {r.deliveries ? (
                      <ul className="deliveries small" aria-label={`Deliveries of ${r.title}`}>
                        {r.deliveries.map((d) => (
                          <li
                            key={`${d.channel}:${d.target}`}
                            className={
                              d.status === 'failed' || (d.attempts > 0 && d.status === 'pending')
                                ? 'form-error'
                                : ''
                            }
                          >
                            {d.channel === 'folder' ? 'Folder' : 'E-mail'} {d.target}:{' '}
                            {d.status === 'delivered'
                              ? 'delivered'
                              : d.status === 'failed'
                                ? `failed (${d.lastError ?? 'unknown'})`
                                : d.attempts > 0
                                  ? `retrying (${d.lastError ?? 'failed'})`
                                  : 'sending…'}
                          </li>
                        ))}
                      </ul>
                    ) : null}
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
