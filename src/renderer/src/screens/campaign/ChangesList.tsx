// A campaign's change history (the synced activity log): what was edited, when and by whom, old → new.
import type { ChangeEvent } from '../../../../shared/api/changes';
import { Empty } from '../../components/ui';
import { date, titleCase } from '../../format';

const SHOWN = 50;

/** Edits worth a mark on the charts (they can move delivery or results). */
export const MARKED_CHANGES = new Set(['BUDGET', 'BID', 'SCHEDULE', 'TARGETING', 'ATTRIBUTION', 'CREATIVE']);

export function ChangesList(props: { changes: readonly ChangeEvent[] }): React.JSX.Element {
  const { changes } = props;
  return (
    <section aria-labelledby="changes-title" className="section">
      <h2 id="changes-title">Changes ({changes.length})</h2>
      {changes.length === 0 ? (
        <Empty title="No changes synced for this campaign.">
          The account&apos;s activity log is read at each sync (the last 90 days at first).
        </Empty>
      ) : (
        <div className="table-wrap">
          <table className="data-table static" aria-label="Change history">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Change</th>
                <th scope="col">On</th>
                <th scope="col">Old → new</th>
                <th scope="col">By</th>
              </tr>
            </thead>
            <tbody>
              {changes.slice(0, SHOWN).map((c, i) => (
                <tr key={`${c.at}-${c.eventType}-${i}`}>
                  <td>{date(c.at)}</td>
                  <td>
                    <span className="pill">{titleCase(c.changeType)}</span>{' '}
                    {c.description.replace(/ \(.*\)$/, '')}
                  </td>
                  <td className="muted">{c.objectName}</td>
                  <td>{c.oldValue !== null || c.newValue !== null ? short(c.oldValue, c.newValue) : '–'}</td>
                  <td className="muted">{c.actor.name ?? '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {changes.length > SHOWN ? (
            <p className="muted small">
              The {SHOWN} most recent of {changes.length} changes.
            </p>
          ) : null}
        </div>
      )}
    </section>
  );
}

function short(oldValue: string | null, newValue: string | null): string {
  const cut = (v: string | null) => (v === null ? '–' : v.length > 40 ? `${v.slice(0, 37)}…` : v);
  return `${cut(oldValue)} → ${cut(newValue)}`;
}
