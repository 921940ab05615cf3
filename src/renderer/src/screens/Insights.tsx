// Insights: totals with trend arrows coloured by whether the change is good news, results per result
// type (a lead and a purchase are never one figure; ROAS only with purchase value), the daily series
// and the breakdown: per account across all accounts (or per campaign on request), per campaign for one
// account. Across currencies: one total per currency, and the usual figures
// only when the agency's reporting currency converts them (amounts are never added as they are).
import { useCall } from '../api/hooks';
import { COLORS, TimeChart } from '../components/charts';
import { DateRangePicker, useDateRange } from '../components/DateRangePicker';
import { ChangeBelow } from '../components/Change';
import { Empty, ErrorState, Loading, NumericHeaders, PageHeader, Trend } from '../components/ui';
import { COMPARE_LABELS } from '../../../shared/date-ranges';
import { compact, compactMoney, date, integer, money, percent, ratio } from '../format';
import { href, setQuery, useRoute } from '../router';
import { ConversionNote, CurrencyTotals } from './insights/CurrencyTotals';

/** The account query value for "All accounts" (no value: all of them, or the busiest when currencies mix). */
const ALL = 'all';

/** KPI tiles for at most this many result types (the largest spend first); all are in the table. */
const MAX_TYPE_TILES = 3;

const resultLabel = (g: { resultName?: string | null; resultType?: string | null }): string =>
  g.resultName ?? g.resultType ?? 'Results';

function pctChange(now: number | null, before: number | null): number | null {
  if (now === null || before === null || before === 0) return null;
  return Math.round(((now - before) / before) * 10_000) / 100;
}

/** The same screen and range narrowed to one account. */
function accountLink(path: string, query: URLSearchParams, id: string): string {
  const next = new URLSearchParams(query);
  next.set('account', id);
  next.delete('by');
  return href(`${path}?${next.toString()}`);
}

export default function Insights(): React.JSX.Element {
  const route = useRoute();
  const [range, setRange] = useDateRange('insights', { preset: 'last_7d', compare: 'previous_period' });
  const accounts = useCall('accounts.list', {});
  // Across currencies the screen opens on the busiest account; "All accounts" shows totals per currency.
  const currencies = new Set((accounts.data ?? []).map((a) => a.currency));
  const mixed = currencies.size > 1;
  const busiest = [...(accounts.data ?? [])].sort((a, b) => b.totalSpendLast30d - a.totalSpendLast30d)[0];
  const param = route.query.get('account');
  const accountId = param === ALL ? '' : (param ?? (mixed ? (busiest?.id ?? '') : ''));
  // Across several accounts the breakdown is per account unless the analyst asks for campaigns.
  const byCampaign = route.query.get('by') === 'campaign';
  const perAccount = !accountId && !byCampaign && (accounts.data?.length ?? 0) > 1;
  const summary = useCall(
    'insights.summary',
    {
      dateRange: range,
      ...(accountId ? { accountId } : { breakdown: perAccount ? 'account' : 'campaign' }),
    },
    { placeholderData: (prev) => prev, enabled: accounts.isSuccess },
  );
  const s = summary.data;
  const comparing = range.compare !== 'none';
  const c = s?.currency ?? 'USD';
  // Several currencies without rates: money has no one currency, only the per-currency totals do.
  const perCurrencyOnly = s?.currencies !== undefined && !s.conversion;
  // Unlike results are never added: one figure and one cost per result per result type.
  const types = s?.resultsByType ?? [];
  const hasValue = types.some((g) => g.revenue > 0);
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
              <select
                value={accountId || ALL}
                onChange={(e) => {
                  // "All accounts" is kept in the URL even before the accounts have loaded (when it is
                  // not yet known whether they mix currencies, which would open on the busiest one).
                  setQuery(route, { account: e.target.value });
                }}
              >
                <option value={ALL}>All accounts</option>
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
          {s.currencies ? <ConversionNote conversion={s.conversion ?? null} /> : null}
          {perCurrencyOnly ? null : (
            <dl className="kpis">
              <div>
                <dt>Spend</dt>
                <dd>{money(s.totals.spend, c)}</dd>
                <dd className="kpi-trend">
                  <Trend change={s.trends.spendChange} goodWhen="neutral" />
                </dd>
              </div>
              {types.slice(0, MAX_TYPE_TILES).map((g) => (
                <div key={`${g.resultType}-${g.resultName}`}>
                  <dt>{resultLabel(g)}</dt>
                  <dd>{integer(g.results)}</dd>
                  <dd className="kpi-trend">
                    <Trend
                      change={g.previous ? pctChange(g.results, g.previous.results) : null}
                      goodWhen="up"
                    />
                  </dd>
                </div>
              ))}
              {types.slice(0, MAX_TYPE_TILES).map((g) =>
                g.costPerResult === null ? null : (
                  <div key={`cost-${g.resultType}-${g.resultName}`}>
                    <dt>Cost per result · {resultLabel(g)}</dt>
                    <dd>{money(g.costPerResult, c)}</dd>
                    <dd className="kpi-trend">
                      <Trend
                        change={g.previous ? pctChange(g.costPerResult, g.previous.costPerResult) : null}
                        goodWhen="down"
                      />
                    </dd>
                  </div>
                ),
              )}
              {hasValue ? (
                <div>
                  <dt>ROAS</dt>
                  <dd>{ratio(s.totals.roas)}</dd>
                  <dd className="kpi-trend">
                    <Trend change={s.trends.roasChange} goodWhen="up" />
                  </dd>
                </div>
              ) : null}
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
          )}
          {s.currencies ? <CurrencyTotals summary={s} /> : null}
          {perCurrencyOnly ? null : (
            <>
              <div className="chart-grid">
                <TimeChart
                  title="Spend per day"
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
                  ]}
                />
                {hasValue ? (
                  <TimeChart
                    title="ROAS per day"
                    data={s.timeSeries}
                    series={[
                      { key: 'roas', label: 'ROAS', color: COLORS.secondary, format: (v) => ratio(v) },
                    ]}
                  />
                ) : null}
              </div>
              <section className="section" aria-labelledby="types-title">
                <h2 id="types-title">Results by result type</h2>
                {types.length === 0 ? (
                  <Empty title="No delivery in this period." />
                ) : (
                  <div className="table-wrap">
                    <table className="data-table static" aria-labelledby="types-title">
                      <thead>
                        <tr>
                          <th scope="col">Result type</th>
                          <NumericHeaders
                            labels={[
                              'Campaigns',
                              'Results',
                              'Cost per result',
                              'Spend',
                              hasValue ? 'ROAS' : null,
                            ]}
                          />
                        </tr>
                      </thead>
                      <tbody>
                        {types.map((g) => (
                          <tr key={`${g.resultType}-${g.resultName}`}>
                            <td>{resultLabel(g)}</td>
                            <td className="num">{integer(g.campaigns)}</td>
                            <td className="num">
                              {integer(g.results)}
                              <ChangeBelow
                                show={comparing && g.previous !== null}
                                now={g.results}
                                before={g.previous?.results}
                                good="up"
                                format={integer}
                              />
                            </td>
                            <td className="num">
                              {money(g.costPerResult, c)}
                              <ChangeBelow
                                show={comparing && g.previous !== null && g.costPerResult !== null}
                                now={g.costPerResult}
                                before={g.previous?.costPerResult}
                                good="down"
                                format={(v) => money(v, c)}
                              />
                            </td>
                            <td className="num">{money(g.spend, c)}</td>
                            {hasValue ? <td className="num">{ratio(g.roas)}</td> : null}
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
              </section>
            </>
          )}
          <section className="section" aria-labelledby="breakdown-title">
            <div className="section-head">
              <h2 id="breakdown-title">{perAccount ? 'By account' : 'By campaign'}</h2>
              {!accountId && (accounts.data?.length ?? 0) > 1 ? (
                <label className="field-inline">
                  <span>Break down by</span>
                  <select
                    value={perAccount ? 'account' : 'campaign'}
                    onChange={(e) =>
                      setQuery(route, { by: e.target.value === 'campaign' ? 'campaign' : null })
                    }
                  >
                    <option value="account">Account</option>
                    <option value="campaign">Campaign</option>
                  </select>
                </label>
              ) : null}
            </div>
            {s.breakdown.length === 0 ? (
              <Empty title="No delivery in this period." />
            ) : (
              <div className="table-wrap">
                <table className="data-table static">
                  <thead>
                    <tr>
                      <th scope="col">{perAccount ? 'Account' : 'Campaign'}</th>
                      <NumericHeaders
                        labels={['Spend', 'Share', 'Results', 'Cost per result', hasValue ? 'ROAS' : null]}
                      />
                    </tr>
                  </thead>
                  <tbody>
                    {s.breakdown.slice(0, 50).map((row) => {
                      const p = row.previous;
                      // Without rates each line is in its own account's currency.
                      const rc = row.currency ?? c;
                      // An account whose campaigns count different results has no one cost per result.
                      const mixedResults = row.resultType === 'MIXED';
                      const change = (
                        now: number | null,
                        before: number | null | undefined,
                        good: 'up' | 'down' | 'neutral',
                        format: (v: number) => string,
                      ) => (
                        <ChangeBelow
                          show={comparing}
                          now={now}
                          before={p ? before : null}
                          good={good}
                          format={format}
                        />
                      );
                      return (
                        <tr key={row.entity.id}>
                          <td>
                            <a
                              href={
                                row.entity.type === 'account'
                                  ? accountLink(route.path, route.query, row.entity.id)
                                  : href(`/campaigns/${row.entity.id}`)
                              }
                            >
                              {row.entity.name}
                            </a>
                          </td>
                          <td className="num">
                            {money(row.spend, rc)}
                            {change(row.spend, p?.spend, 'neutral', (v) => money(v, rc))}
                          </td>
                          <td className="num">
                            {s.totals.spend > 0 ? percent((row.spend / s.totals.spend) * 100, 1) : '–'}
                          </td>
                          <td className="num">
                            {integer(row.conversions)}
                            <span className="muted small"> {resultLabel(row).toLowerCase()}</span>
                            {change(row.conversions, p?.conversions, 'up', integer)}
                          </td>
                          <td className="num">
                            {mixedResults ? '–' : money(row.cpa, rc)}
                            {mixedResults ? null : change(row.cpa, p?.cpa, 'down', (v) => money(v, rc))}
                          </td>
                          {hasValue ? (
                            <td className="num">
                              {row.revenue ? ratio(row.roas) : '–'}
                              {row.revenue ? change(row.roas, p?.roas, 'up', (v) => ratio(v)) : null}
                            </td>
                          ) : null}
                        </tr>
                      );
                    })}
                  </tbody>
                  {perCurrencyOnly ? null : (
                    <tfoot>
                      <tr className="totals-row">
                        <td>
                          <strong>
                            Total · {s.breakdown.length} {perAccount ? 'accounts' : 'campaigns'}
                          </strong>
                        </td>
                        <td className="num">
                          <strong>{money(s.totals.spend, c)}</strong>
                        </td>
                        <td className="num">100%</td>
                        <td className="num muted" colSpan={2}>
                          per result type above
                        </td>
                        {hasValue ? (
                          <td className="num">
                            <strong>{ratio(s.totals.roas)}</strong>
                          </td>
                        ) : null}
                      </tr>
                    </tfoot>
                  )}
                </table>
                {s.breakdown.length > 50 ? (
                  <p className="muted small">
                    Top 50 of {s.breakdown.length} {perAccount ? 'accounts' : 'campaigns'} by spend.
                  </p>
                ) : null}
              </div>
            )}
          </section>
        </>
      )}
    </>
  );
}
