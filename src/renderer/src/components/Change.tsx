// A change against the comparison period: percent and absolute, coloured by whether it is good for
// the metric (cost per result down is good, spend is neutral).
import { deltaOf, type GoodWhen } from '../screens/campaign/table-metrics';

export function Change(props: {
  now: number | null;
  before: number | null | undefined;
  good: GoodWhen;
  format: (value: number) => string;
}): React.JSX.Element {
  const d = props.before === undefined ? null : deltaOf(props.now, props.before, props.good);
  if (!d) return <span className="delta delta-neutral">no comparison</span>;
  if (d.absolute === 0) return <span className="delta delta-neutral">no change</span>;
  const arrow = d.absolute > 0 ? '▲' : '▼';
  const sign = d.absolute > 0 ? '+' : '−';
  const pct = d.percent === null ? 'new' : `${Math.abs(d.percent).toFixed(1)}%`;
  return (
    <span
      className={`delta delta-${d.tone}`}
      title={`Compared period: ${props.before === null ? '–' : props.format(props.before as number)}`}
    >
      {arrow} {pct} ({sign}
      {props.format(Math.abs(d.absolute))})
    </span>
  );
}

/** A change set under a table cell's value; nothing when the table is not compared. */
export function ChangeBelow(
  props: Parameters<typeof Change>[0] & { show: boolean },
): React.JSX.Element | null {
  if (!props.show) return null;
  return (
    <>
      <br />
      <Change now={props.now} before={props.before} good={props.good} format={props.format} />
    </>
  );
}
