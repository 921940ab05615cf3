// Recurring reports: each active schedule with its cadence and next run, and a cancel that asks first
// (cancelling also removes the run waiting as pending).
import { useState } from 'react';
import type { ReportScheduleView } from '../../../../shared/ipc';
import { useCall, useCallMutation } from '../../api/hooks';
import { ErrorState } from '../../components/ui';
import { CADENCE_LABEL, dueTime, FORMAT_LABEL } from './labels';

function CancelSchedule(props: { schedule: ReportScheduleView }): React.JSX.Element {
  const [asking, setAsking] = useState(false);
  const cancel = useCallMutation('reports.unschedule', ['reports']);
  const { schedule } = props;
  if (!asking) {
    return (
      <button
        type="button"
        className="button subtle"
        aria-label={`Cancel schedule ${schedule.title}`}
        onClick={() => setAsking(true)}
      >
        Cancel
      </button>
    );
  }
  return (
    <span className="confirm-inline" role="group" aria-label={`Confirm cancelling ${schedule.title}`}>
      <span className="small">Stop this schedule?</span>
      <button
        type="button"
        className="button danger"
        disabled={cancel.isPending}
        onClick={() => cancel.mutate({ id: schedule.id })}
      >
        Stop schedule
      </button>
      <button type="button" className="button subtle" onClick={() => setAsking(false)}>
        Keep
      </button>
      {cancel.error ? <span className="form-error small">{cancel.error.message}</span> : null}
    </span>
  );
}

export function Schedules(): React.JSX.Element | null {
  const schedules = useCall('reports.schedules', {});
  if (schedules.isPending) return null;
  if (schedules.isError) {
    return <ErrorState error={schedules.error} onRetry={() => void schedules.refetch()} />;
  }
  if (schedules.data.length === 0) return null;
  return (
    <section className="section schedules" aria-labelledby="schedules-title">
      <h2 id="schedules-title">Recurring reports</h2>
      <div className="table-wrap">
        <table className="data-table static">
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Ad account</th>
              <th scope="col">Repeats</th>
              <th scope="col">Format</th>
              <th scope="col">Next run</th>
              <th scope="col">
                <span className="visually-hidden">Cancel</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {schedules.data.map((s) => (
              <tr key={s.id}>
                <td>
                  {s.title}
                  <div className="muted small">
                    {s.campaignIds ? `${s.campaignIds.length} campaigns` : 'Top 20 campaigns by spend'}
                  </div>
                </td>
                <td>{s.accountName}</td>
                <td>{CADENCE_LABEL[s.cadence]}</td>
                <td>{FORMAT_LABEL[s.format]}</td>
                <td>{dueTime(s.nextRunAt)}</td>
                <td className="actions-cell">
                  <CancelSchedule schedule={s} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
