// Insights: totals with trend arrows coloured by whether the change is good news, the daily series,
// and the per-campaign breakdown.
import { useCall } from '../api/hooks';
import { COLORS, TimeChart } from '../components/charts';
import { DateRangePicker, useDateRange } from '../components/DateRangePicker';
import { Change } from '../components/Change';
import { Empty, ErrorState, Loading, PageHeader, Trend } from '../components/ui';
import { COMPARE_LABELS } from '../../../shared/date-ranges';
import { compact, compactMoney, date, integer, money, percent, ratio } from '../format';
import { href, setQuery, useRoute } from '../router';

export default function Insights(): React.JSX.Element {
  const route = useRoute();
  const [range, setRange] = useDateRange('insights', { preset: 'last_7d', compare: 'previous_period' });
  const accounts = useCall('accounts.list', {});
  // Totals only add up within one currency: across currencies an account must be chosen.
  const currencies = new Set((accounts.data ?? []).map((a) => a.currency));
  const mixed = currencies.size > 1;
  const busiest = [...(accounts.data ?? [])].sort((a, b) => b.totalSpendLast30d - a.totalSpendLast30d)[0];
  const accountId = route.query.get('account') ?? (mixed ? (busiest?.id ?? '') : '');
  const summary = useCall(
    'insights.summary',
    { dateRange: range, ...(accountId ? { accountId } : {}) },
    { placeholderData: (prev) => prev, enabled: accounts.isSuccess },
  );
  const s = summary.data;
  const comparing = range.compare !== 'none';
  const c = s?.currency ?? 'USD';
  return (
    <>
      <PageHeader
        title="Insights"
        subtitle={
          s
            ? `${date(s.dateRange.from)} – ${date(s.dateRange.to)}${range.compare === 'none' ? '' : `, compared with the ${COMPARE_LABELS[range.compare].toLowerCase()}`}`
            : 'Performance across your accounts.'
        }
        actions={
          <>
            <label className="field-inline">
              <span>Account</span>
              <select value={accountId} onChange={(e) => setQuery(route, { account: e.target.value })}>
                {mixed ? null : <option value="">All accounts</option>}
                {(accounts.data ?? []).map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name} ({a.currency})
                  </option>
                ))}
              </select>
            </label>
            <DateRangePicker value={range} onChange={setRange} resolved={s?.dateRange} />
          </>
        }
      />
      {accounts.isSuccess && accounts.data.length === 0 ? (
        <Empty title="No data yet.">Connect an ad account to see insights.</Empty>
      ) : summary.isPending ? (
        <Loading label="Loading insights…" />
      ) : summary.isError ? (
        summary.error.type === 'not_found' ? (
          <Empty title="No data yet.">{summary.error.message}</Empty>
        ) : (
          <ErrorState error={summary.error} onRetry={() => void summary.refetch()} />
        )
      ) : !s ? null : (
        <>
          <dl className="kpis">
            <div>
              <dt>Spend</dt>
              <dd>{money(s.totals.spend, c)}</dd>
              <dd className="kpi-trend">
                <Trend change={s.trends.spendChange} goodWhen="neutral" />
              </dd>
            </div>
            <div>
              <dt>Conversions</dt>
              <dd>{integer(s.totals.conversions)}</dd>
              <dd className="kpi-trend">
                <Trend change={s.trends.conversionsChange} goodWhen="up" />
              </dd>
            </div>
            <div>
              <dt>CPA</dt>
              <dd>{money(s.totals.cpa, c)}</dd>
              <dd className="kpi-trend">
                <Trend change={s.trends.cpaChange} goodWhen="down" />
              </dd>
            </div>
            <div>
              <dt>ROAS</dt>
              <dd>{ratio(s.totals.roas)}</dd>
              <dd className="kpi-trend">
                <Trend change={s.trends.roasChange} goodWhen="up" />
              </dd>
            </div>
            <div>
              <dt>CTR</dt>
              <dd>{percent(s.totals.ctr)}</dd>
            </div>
            <div>
              <dt>CPM</dt>
              <dd>{money(s.totals.cpm, c)}</dd>
            </div>
            <div>
              <dt>Impressions</dt>
              <dd>{compact(s.totals.impressions)}</dd>
            </div>
            <div>
              <dt>Frequency</dt>
              <dd>{s.totals.frequency === null ? '–' : s.totals.frequency.toFixed(2)}</dd>
            </div>
          </dl>
          <div className="chart-grid">
            <TimeChart
              title="Spend and conversions per day"
              data={s.timeSeries}
              series={[
                {
                  key: 'spend',
                  label: 'Spend',
                  color: COLORS.primary,
                  kind: 'bar',
                  format: (v) => money(v, c, 0),
                  tick: (v) => compactMoney(v, c),
                },
                {
                  key: 'conversions',
                  label: 'Conversions',
                  color: COLORS.secondary,
                  axis: 'right',
                  format: (v) => integer(v),
                },
              ]}
            />
            <TimeChart
              title="CPA and ROAS per day"
              data={s.timeSeries}
              series={[
                {
                  key: 'cpa',
                  label: 'CPA',
                  color: COLORS.warn,
                  format: (v) => money(v, c),
                  tick: (v) => compactMoney(v, c),
                },
                {
                  key: 'roas',
                  label: 'ROAS',
                  color: COLORS.secondary,
                  axis: 'right',
                  format: (v) => ratio(v),
                },
              ]}
            />
          </div>
          <section className="section" aria-labelledby="breakdown-title">
            <h2 id="breakdown-title">By campaign</h2>
            {s.breakdown.length === 0 ? (
              <Empty title="No delivery in this period." />
            ) : (
              <div className="table-wrap">
                <table className="data-table static">
                  <thead>
                    <tr>
                      <th scope="col">Campaign</th>
                      <th scope="col" className="num">
                        Spend
                      </th>
                      <th scope="col" className="num">
                        Share
                      </th>
                      <th scope="col" className="num">
                        Conversions
                      </th>
                      <th scope="col" className="num">
                        CPA
                      </th>
                      <th scope="col" className="num">
                        ROAS
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {s.breakdown.slice(0, 50).map((row) => {
                      const p = row.previous;
                      const change = (
                        now: number | null,
                        before: number | null | undefined,
                        good: 'up' | 'down' | 'neutral',
                        format: (v: number) => string,
                      ) =>
                        comparing ? (
                          <>
                            <br />
                            <Change now={now} before={p ? before : null} good={good} format={format} />
                          </>
                        ) : null;
                      return (
                        <tr key={row.entity.id}>
                          <td>
                            <a href={href(`/campaigns/${row.entity.id}`)}>{row.entity.name}</a>
                          </td>
                          <td className="num">
                            {money(row.spend, c)}
                            {change(row.spend, p?.spend, 'neutral', (v) => money(v, c))}
                          </td>
                          <td className="num">
                            {s.totals.spend > 0 ? percent((row.spend / s.totals.spend) * 100, 1) : '–'}
                          </td>
                          <td className="num">
                            {integer(row.conversions)}
                            {change(row.conversions, p?.conversions, 'up', integer)}
                          </td>
                          <td className="num">
                            {money(row.cpa, c)}
                            {change(row.cpa, p?.cpa, 'down', (v) => money(v, c))}
                          </td>
                          <td className="num">
                            {ratio(row.roas)}
                            {change(row.roas, p?.roas, 'up', (v) => ratio(v))}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                  <tfoot>
                    <tr className="totals-row">
                      <td>
                        <strong>Total · {s.breakdown.length} campaigns</strong>
                      </td>
                      <td className="num">
                        <strong>{money(s.totals.spend, c)}</strong>
                      </td>
                      <td className="num">100%</td>
                      <td className="num">
                        <strong>{integer(s.totals.conversions)}</strong>
                      </td>
                      <td className="num">
                        <strong>{money(s.totals.cpa, c)}</strong>
                      </td>
                      <td className="num">
                        <strong>{ratio(s.totals.roas)}</strong>
                      </td>
                    </tr>
                  </tfoot>
                </table>
                {s.breakdown.length > 50 ? (
                  <p className="muted small">Top 50 of {s.breakdown.length} campaigns by spend.</p>
                ) : null}
              </div>
            )}
          </section>
        </>
      )}
    </>
  );
}
