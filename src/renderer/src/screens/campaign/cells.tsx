// How a campaigns-table cell reads: the value in its unit and, when a period is compared, the change
// (percent and absolute) coloured by whether it is good for that metric.
import type { ReactNode } from 'react';
import type { CampaignRow } from '../../../../shared/ipc';
import { RiskBadge, StatusPill } from '../../components/ui';
import { date, integer, money, percent, ratio } from '../../format';
import { href } from '../../router';
import type { CampaignColumn, ColumnKind } from './columns';
import { resultsText } from './export';
import { rowValues, type MetricValues, type Totals } from './table-metrics';
import { Change } from '../../components/Change';

export function formatValue(
  kind: ColumnKind,
  value: string | number | null,
  currency: string | null,
): string {
  if (value === null) return '–';
  if (typeof value === 'string') return value;
  switch (kind) {
    case 'money':
      return currency ? money(value, currency) : '–';
    case 'integer':
      return integer(value);
    case 'percent':
      return percent(value);
    case 'ratio':
      return ratio(value);
    case 'decimal':
      return value.toFixed(2);
    case 'text':
      return String(value);
  }
}

function MetricChange(props: {
  column: CampaignColumn;
  current: MetricValues | null;
  previous: MetricValues | null;
  currency: string | null;
}): React.JSX.Element | null {
  const metric = props.column.metric;
  if (!metric) return null;
  return (
    <Change
      now={props.current ? metric.of(props.current) : null}
      before={props.previous ? metric.of(props.previous) : null}
      good={metric.good}
      format={(v) => formatValue(props.column.kind, v, props.currency)}
    />
  );
}

/** A row's cell. */
export function renderCell(column: CampaignColumn, row: CampaignRow, comparing: boolean): ReactNode {
  if (column.metric) {
    const current = rowValues(row, row.resultType);
    const raw = column.metric.of(current);
    const value = formatValue(column.kind, raw, row.currency);
    // Nothing to compare when the campaign has no such figure (ROAS of a lead campaign).
    return comparing && raw !== null ? (
      <span className="metric-cell">
        <span>{value}</span>
        <MetricChange
          column={column}
          current={current}
          previous={row.previous ? rowValues(row.previous, row.resultType) : null}
          currency={row.currency}
        />
      </span>
    ) : (
      value
    );
  }
  switch (column.key) {
    case 'name':
      return (
        <a className="cell-name wrap" href={href(`/campaigns/${row.id}`)} tabIndex={-1}>
          {row.name}
        </a>
      );
    case 'status':
      return <StatusPill status={row.status} />;
    // Text that may be long wraps to two lines, with the whole of it in the tooltip: never cut silently.
    case 'account':
    case 'resultType': {
      const text = column.text?.(row) ?? null;
      return text === null ? (
        <span className="muted">–</span>
      ) : (
        <span className="wrap" title={String(text)}>
          {String(text)}
        </span>
      );
    }
    case 'budget':
      return row.dailyBudget === null ? (
        <span className="muted">{row.lifetimeBudget ? 'Lifetime' : 'Ad sets'}</span>
      ) : (
        money(row.dailyBudget, row.currency, 0)
      );
    case 'diagnostic':
      return row.latestDiagnostic ? (
        <span className="cell-diagnostic" title={`Completed ${date(row.latestDiagnostic.completedAt)}`}>
          <RiskBadge level={row.latestDiagnostic.riskLevel} />
          <span className="muted">
            {row.latestDiagnostic.issuesDetected} issue{row.latestDiagnostic.issuesDetected === 1 ? '' : 's'}
          </span>
        </span>
      ) : (
        <span className="muted">{row.synced ? 'None yet' : 'Not synced yet'}</span>
      );
    default: {
      const value = column.text?.(row) ?? null;
      return value === null ? (
        <span className="muted">–</span>
      ) : (
        formatValue(column.kind, value, row.currency)
      );
    }
  }
}

/** The totals row's cell: results per result type, money only in one currency, ratios from totals. */
export function renderTotal(
  column: CampaignColumn,
  index: number,
  totals: { current: Totals; previous: Totals | null },
  comparing: boolean,
): ReactNode {
  const { current, previous } = totals;
  if (index === 0)
    return (
      <strong>
        Total · {current.campaigns.toLocaleString('en-US')} campaign{current.campaigns === 1 ? '' : 's'}
      </strong>
    );
  if (column.key === 'resultType')
    return (
      <span className="wrap" title={resultsText(current)}>
        {resultsText(current) || '–'}
      </span>
    );
  if (!column.metric) return null;
  const value = column.metric.of(current.values);
  if (value === null) {
    const why =
      column.key === 'results' || column.key === 'costPerResult'
        ? 'Results of different types are not added up: see Result type.'
        : 'The campaigns use several currencies: pick an account to total money.';
    return (
      <span className="muted" title={why}>
        –
      </span>
    );
  }
  const shown = formatValue(column.kind, value, current.currency);
  return comparing ? (
    <span className="metric-cell">
      <strong>{shown}</strong>
      <MetricChange
        column={column}
        current={current.values}
        previous={previous?.values ?? null}
        currency={current.currency}
      />
    </span>
  ) : (
    <strong>{shown}</strong>
  );
}
