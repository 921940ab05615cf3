// The small shared pieces every screen uses: page header, loading / error / empty states, badges.
import type { ReactNode } from 'react';
import type { CallError } from '../api/transport';
import { titleCase } from '../format';

export function PageHeader(props: {
  title: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
}): React.JSX.Element {
  return (
    <header className="page-header">
      <div>
        <h1>{props.title}</h1>
        {props.subtitle ? <p className="subtitle">{props.subtitle}</p> : null}
      </div>
      {props.actions ? <div className="page-actions">{props.actions}</div> : null}
    </header>
  );
}

export function Loading(props: { label?: string }): React.JSX.Element {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {props.label ?? 'Loading…'}
    </div>
  );
}

export function ErrorState(props: {
  error: CallError | Error | null;
  onRetry?: () => void;
}): React.JSX.Element {
  return (
    <div className="state state-error" role="alert">
      <strong>Could not load this.</strong>
      <span>{props.error?.message ?? 'Unknown error.'}</span>
      {props.onRetry ? (
        <button type="button" className="button" onClick={props.onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

export function Empty(props: { title: string; children?: ReactNode }): React.JSX.Element {
  return (
    <div className="state state-empty">
      <strong>{props.title}</strong>
      {props.children ? <div>{props.children}</div> : null}
    </div>
  );
}

export function RiskBadge(props: { level: string | null | undefined }): React.JSX.Element {
  if (!props.level) return <span className="badge badge-none">No diagnostic</span>;
  return <span className={`badge risk-${props.level.toLowerCase()}`}>{titleCase(props.level)}</span>;
}

const STATUS_TONE: Record<string, string> = {
  active: 'ok',
  completed: 'ok',
  exited: 'ok',
  generating: 'busy',
  running: 'busy',
  pending: 'busy',
  in_learning: 'busy',
  syncing: 'busy',
  paused: 'muted',
  archived: 'muted',
  deleted: 'muted',
  revoked: 'muted',
  failed: 'bad',
  fail: 'bad',
  token_expired: 'bad',
  disconnected: 'bad',
  disabled: 'bad',
  closed: 'muted',
};

export function StatusPill(props: { status: string; label?: string }): React.JSX.Element {
  const tone = STATUS_TONE[props.status.toLowerCase()] ?? 'muted';
  return <span className={`pill pill-${tone}`}>{props.label ?? titleCase(props.status)}</span>;
}

export function ProgressBar(props: { percent: number; label: string }): React.JSX.Element {
  const value = Math.max(0, Math.min(100, Math.round(props.percent)));
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={props.label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
    >
      <div className="progress-fill" style={{ width: `${value}%` }} />
    </div>
  );
}

export const RANGE_OPTIONS = [7, 14, 30, 60, 90] as const;

export function RangePicker(props: {
  days: number;
  onChange: (days: number) => void;
  id?: string;
}): React.JSX.Element {
  const id = props.id ?? 'range';
  return (
    <label className="field-inline" htmlFor={id}>
      <span>Date range</span>
      <select id={id} value={props.days} onChange={(e) => props.onChange(Number(e.target.value))}>
        {RANGE_OPTIONS.map((d) => (
          <option key={d} value={d}>
            Last {d} days
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * A percent change coloured by whether it is good news: for costs (CPA) a rise is bad, for spend it is
 * neutral, for conversions and ROAS a rise is good.
 */
export function Trend(props: {
  change: number | null | undefined;
  goodWhen: 'up' | 'down' | 'neutral';
}): React.JSX.Element {
  const { change } = props;
  if (change === null || change === undefined) return <span className="trend trend-flat">no comparison</span>;
  const direction = change > 0 ? 'up' : change < 0 ? 'down' : 'flat';
  const tone =
    direction === 'flat' || props.goodWhen === 'neutral'
      ? 'neutral'
      : direction === props.goodWhen
        ? 'good'
        : 'bad';
  const arrow = direction === 'up' ? '▲' : direction === 'down' ? '▼' : '■';
  const words = direction === 'flat' ? 'unchanged' : `${direction} ${Math.abs(change).toFixed(1)}%`;
  return (
    <span
      className={`trend trend-${tone}`}
      aria-label={`${words} vs previous period (${tone === 'neutral' ? 'neutral' : tone})`}
    >
      <span aria-hidden="true">{arrow}</span> {Math.abs(change).toFixed(1)}%
    </span>
  );
}

/** Column headers of numbers (right-aligned); a null label is a column this table leaves out. */
export function NumericHeaders(props: { labels: ReadonlyArray<string | null> }): React.JSX.Element {
  return (
    <>
      {props.labels.map((label) =>
        label === null ? null : (
          <th key={label} scope="col" className="num">
            {label}
          </th>
        ),
      )}
    </>
  );
}

export interface FilterOption {
  value: string;
  label: string;
}

/** A labelled filter select whose first option ("All accounts", "Any risk"…) means no filter. */
export function FilterSelect(props: {
  label: string;
  anyLabel: string;
  value: string;
  options: readonly FilterOption[];
  onChange: (value: string) => void;
}): React.JSX.Element {
  return (
    <label className="field-inline">
      <span>{props.label}</span>
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{props.anyLabel}</option>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The risk levels as filter options, worst first. */
export const RISK_OPTIONS: readonly FilterOption[] = [
  { value: 'CRITICAL', label: 'Critical' },
  { value: 'HIGH', label: 'High' },
  { value: 'MEDIUM', label: 'Medium' },
  { value: 'LOW', label: 'Low' },
];
