// Campaigns: every campaign over an Ads Manager date range, with changes against a comparison period
// and a totals row; column sets and a chooser, saved views, CSV/XLSX export of exactly what is shown;
// virtualized (only the rows in view are in the DOM) and keyboard-navigable.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { CampaignRow } from '../../../shared/ipc';
import type { SavedView, SavedViewDefinition } from '../../../shared/api/saved-views';
import { useCall } from '../api/hooks';
import { DateRangePicker, rangeText, useDateRange } from '../components/DateRangePicker';
import { Empty, ErrorState, FilterSelect, Loading, PageHeader, RISK_OPTIONS } from '../components/ui';
import { VirtualTable, type Column } from '../components/VirtualTable';
import { navigate, setQuery, useRoute } from '../router';
import { renderCell, renderTotal } from './campaign/cells';
import { ColumnChooser, ColumnSets } from './campaign/ColumnChooser';
import { columnsOf, COLUMN_SETS, sortRows } from './campaign/columns';
import { download } from './campaign/download';
import { exportTable, toCsv, toXlsx } from './campaign/export';
import { SavedViews } from './campaign/SavedViews';
import { totalsOf } from './campaign/table-metrics';

const COLUMNS_KEY = 'adlens:campaigns:columns';
const FILTER_KEYS = ['q', 'status', 'risk', 'account', 'result'] as const;

function storedColumns(): string[] {
  try {
    const raw = JSON.parse(window.localStorage.getItem(COLUMNS_KEY) ?? 'null') as unknown;
    if (Array.isArray(raw) && raw.length > 0 && raw.every((k) => typeof k === 'string')) {
      const known = columnsOf(raw as string[]).map((c) => c.key);
      if (known[0] === 'name') return known;
    }
  } catch {
    // A broken stored value falls back to the Performance set.
  }
  return [...COLUMN_SETS.performance.columns];
}

export default function Campaigns(): React.JSX.Element {
  const route = useRoute();
  const search = route.query.get('q') ?? '';
  const status = route.query.get('status') ?? '';
  const risk = route.query.get('risk') ?? '';
  const accountId = route.query.get('account') ?? '';
  const resultType = route.query.get('result') ?? '';
  const sortKey = route.query.get('sort') ?? 'spend';
  const sortDir = route.query.get('dir') === 'asc' ? 'asc' : 'desc';
  const [range, setRange] = useDateRange('campaigns', { preset: 'last_7d', compare: 'none' });
  const [columnKeys, setColumnKeysState] = useState<string[]>(storedColumns);
  const setColumnKeys = useCallback((keys: string[]) => {
    setColumnKeysState(keys);
    window.localStorage.setItem(COLUMNS_KEY, JSON.stringify(keys));
  }, []);

  const accounts = useCall('accounts.list', {});
  // The period's rows come first; the comparison (a second range read) follows and adds the changes,
  // so comparing never holds the table back.
  const scope = accountId ? { accountId } : {};
  const comparison = range.compare !== 'none';
  const periodOnly = useCall(
    'campaigns.list',
    { dateRange: { ...range, compare: 'none' }, ...scope },
    { placeholderData: (prev) => prev },
  );
  const compared = useCall(
    'campaigns.list',
    { dateRange: range, ...scope },
    { placeholderData: (prev) => prev, enabled: comparison },
  );
  const campaigns = comparison && compared.data && !compared.isPlaceholderData ? compared : periodOnly;
  const comparing = Boolean(campaigns.data?.comparison);

  const rows = useMemo(() => {
    const items = campaigns.data?.items ?? [];
    const needle = search.trim().toLowerCase();
    const filtered = items.filter(
      (r) =>
        (!needle || r.name.toLowerCase().includes(needle) || r.platformCampaignId.includes(needle)) &&
        (!status || r.status === status) &&
        (!resultType || (r.resultName ?? '') === resultType) &&
        (!risk || (risk === 'NONE' ? !r.latestDiagnostic : r.latestDiagnostic?.riskLevel === risk)),
    );
    return sortRows(filtered, sortKey, sortDir);
  }, [campaigns.data, search, status, risk, resultType, sortKey, sortDir]);

  const totals = useMemo(
    () => ({
      current: totalsOf(rows, (r) => r),
      previous: comparing ? totalsOf(rows, (r) => r.previous) : null,
    }),
    [rows, comparing],
  );

  const visible = useMemo(() => columnsOf(columnKeys), [columnKeys]);
  const tableColumns = useMemo(
    (): Column<CampaignRow>[] =>
      visible.map((c, i) => ({
        key: c.key,
        label: c.label,
        // Changes take a second line: metric columns widen so no figure is cut.
        ...(c.key === 'name'
          ? {}
          : { width: c.metric && comparing ? Math.max(150, c.width ?? 0) : (c.width ?? 120) }),
        numeric: Boolean(c.metric),
        render: (r) => renderCell(c, r, comparing),
        footer: renderTotal(c, i, totals, comparing),
      })),
    [visible, comparing, totals],
  );

  const ready = campaigns.isSuccess;
  useEffect(() => {
    // A readiness signal for tests and the UI bench: rows are on screen and handlers attached.
    if (ready) performance.mark('adlens:campaigns-interactive');
  }, [ready]);

  const currencies = useMemo(
    () => new Set((campaigns.data?.items ?? []).map((r) => r.currency)),
    [campaigns.data],
  );
  const statuses = useMemo(
    () => [...new Set((campaigns.data?.items ?? []).map((r) => r.status))].sort(),
    [campaigns.data],
  );
  const resultTypes = useMemo(
    () => [...new Set((campaigns.data?.items ?? []).map((r) => r.resultName ?? ''))].filter(Boolean).sort(),
    [campaigns.data],
  );

  const definition: SavedViewDefinition = {
    columns: columnKeys,
    sort: { key: sortKey, dir: sortDir },
    filters: Object.fromEntries(
      FILTER_KEYS.map((k) => [k, route.query.get(k) ?? '']).filter(([, v]) => v !== ''),
    ),
    dateRange: range,
  };
  const applyView = (view: SavedView): void => {
    const d = view.definition;
    setColumnKeys(columnsOf(d.columns).map((c) => c.key));
    setRange(d.dateRange);
    setQuery(route, {
      ...Object.fromEntries(FILTER_KEYS.map((k) => [k, d.filters[k] ?? null])),
      sort: d.sort.key,
      dir: d.sort.dir,
    });
  };

  const exportAs = (kind: 'csv' | 'xlsx'): void => {
    const table = exportTable(rows, visible, totals, comparing);
    const period = campaigns.data
      ? `${campaigns.data.dateRange.from}_${campaigns.data.dateRange.to}`
      : 'campaigns';
    if (kind === 'csv') download(`campaigns_${period}.csv`, toCsv(table), 'text/csv;charset=utf-8');
    else
      download(
        `campaigns_${period}.xlsx`,
        toXlsx(table),
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
  };

  return (
    <>
      <PageHeader
        title="Campaigns"
        subtitle={
          campaigns.data
            ? `${rows.length.toLocaleString('en-US')} of ${campaigns.data.items.length.toLocaleString('en-US')} campaigns · ${rangeText(campaigns.data.dateRange, campaigns.data.comparison)}${currencies.size > 1 && !accountId ? ` · ${currencies.size} currencies: pick an account to total money` : ''}`
            : 'Every campaign of your connected accounts.'
        }
      />
      <div className="toolbar" role="search">
        <label className="field-inline">
          <span>Search</span>
          <input
            type="search"
            placeholder="Campaign name or ID"
            value={search}
            onChange={(e) => setQuery(route, { q: e.target.value })}
          />
        </label>
        <FilterSelect
          label="Account"
          anyLabel="All accounts"
          value={accountId}
          options={(accounts.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
          onChange={(account) => setQuery(route, { account })}
        />
        <FilterSelect
          label="Status"
          anyLabel="Any status"
          value={status}
          options={statuses.map((s) => ({ value: s, label: s.toLowerCase() }))}
          onChange={(status) => setQuery(route, { status })}
        />
        <FilterSelect
          label="Result type"
          anyLabel="Any result"
          value={resultType}
          options={resultTypes.map((s) => ({ value: s, label: s }))}
          onChange={(result) => setQuery(route, { result })}
        />
        <FilterSelect
          label="Risk"
          anyLabel="Any risk"
          value={risk}
          options={[...RISK_OPTIONS, { value: 'NONE', label: 'No diagnostic' }]}
          onChange={(risk) => setQuery(route, { risk })}
        />
        <DateRangePicker value={range} onChange={setRange} resolved={campaigns.data?.dateRange} />
      </div>
      <div className="toolbar table-tools">
        <ColumnSets columns={columnKeys} onChange={setColumnKeys} />
        <ColumnChooser columns={columnKeys} onChange={setColumnKeys} />
        <SavedViews current={definition} onApply={applyView} />
        <span className="toolbar-spacer" />
        <button type="button" className="button" disabled={rows.length === 0} onClick={() => exportAs('csv')}>
          Export CSV
        </button>
        <button
          type="button"
          className="button"
          disabled={rows.length === 0}
          onClick={() => exportAs('xlsx')}
        >
          Export XLSX
        </button>
      </div>
      {campaigns.isPending ? (
        <Loading label="Loading campaigns…" />
      ) : campaigns.isError ? (
        <ErrorState error={campaigns.error} onRetry={() => void campaigns.refetch()} />
      ) : campaigns.data.items.length === 0 ? (
        <Empty title="No campaigns yet.">Connect an ad account and let its first sync finish.</Empty>
      ) : rows.length === 0 ? (
        <Empty title="No campaign matches these filters." />
      ) : (
        <VirtualTable
          label="Campaigns"
          columns={tableColumns}
          rows={rows}
          rowKey={(r) => r.id}
          sortKey={sortKey}
          sortDir={sortDir}
          onSort={(key) =>
            setQuery(route, { sort: key, dir: key === sortKey && sortDir === 'desc' ? 'asc' : 'desc' })
          }
          onOpen={(r) => navigate(`/campaigns/${r.id}`)}
          rowHeight={comparing ? 56 : 48}
          rowTitle={(r) => `${r.name} · ${r.accountName}`}
          footer
        />
      )}
    </>
  );
}
