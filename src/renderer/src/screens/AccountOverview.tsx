// One account at a glance: its KPIs against the previous period, results per result type, the daily
// trend (dated, in the account's time zone), the top open issues and the latest synced changes.
import type { AccountOverview as Overview } from '../../../shared/api/portfolio';
import { useCall } from '../api/hooks';
import { COLORS, TimeChart } from '../components/charts';
import { Empty, ErrorState, Loading, PageHeader, RiskBadge, Trend } from '../components/ui';
import { compact, date, dateTime, integer, money, percent, ratio, relative } from '../format';
import { href } from '../router';

function Kpis(props: { o: Overview }): React.JSX.Element {
  const { kpis, account } = props.o;
  const c = account.currency;
  return (
    <dl className="kpis">
      <div>
        <dt>Spend</dt>
        <dd>{money(kpis.spend.value, c)}</dd>
        <dd className="kpi-trend">
          <Trend change={kpis.spend.change} goodWhen="neutral" />
        </dd>
      </div>
      <div>
        <dt>Impressions</dt>
        <dd>{kpis.impressions.value === null ? '–' : compact(kpis.impressions.value)}</dd>
        <dd className="kpi-trend">
          <Trend change={kpis.impressions.change} goodWhen="up" />
        </dd>
      </div>
      <div>
        <dt>CTR (link)</dt>
        <dd>{percent(kpis.ctr.value)}</dd>
        <dd className="kpi-trend">
          <Trend change={kpis.ctr.change} goodWhen="up" />
        </dd>
      </div>
      <div>
        <dt>CPM</dt>
        <dd>{money(kpis.cpm.value, c)}</dd>
        <dd className="kpi-trend">
          <Trend change={kpis.cpm.change} goodWhen="down" />
        </dd>
      </div>
    </dl>
  );
}

function Results(props: { o: Overview }): React.JSX.Element {
  const c = props.o.account.currency;
  if (props.o.results.length === 0) return <Empty title="No results in this period." />;
  return (
    <div className="table-wrap">
      <table className="data-table static" aria-label="Results by result type">
        <thead>
          <tr>
            <th scope="col">Result type</th>
            <th scope="col" className="num">
              Campaigns
            </th>
            <th scope="col" className="num">
              Results
            </th>
            <th scope="col">vs previous</th>
            <th scope="col" className="num">
              Cost per result
            </th>
            <th scope="col">vs previous</th>
            <th scope="col" className="num">
              Spend
            </th>
            <th scope="col" className="num">
              ROAS
            </th>
          </tr>
        </thead>
        <tbody>
          {props.o.results.map((g) => (
            <tr key={`${g.resultType}-${g.resultName}`}>
              <td>{g.resultName ?? g.resultType ?? 'Not known yet'}</td>
              <td className="num">{integer(g.campaigns)}</td>
              <td className="num">{integer(g.results)}</td>
              <td>
                <Trend change={g.resultsChange} goodWhen="up" />
              </td>
              <td className="num">{money(g.costPerResult, c)}</td>
              <td>
                <Trend change={g.costPerResultChange} goodWhen="down" />
              </td>
              <td className="num">{money(g.spend, c)}</td>
              <td className="num">{ratio(g.roas)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function AccountOverview(props: { accountId: string }): React.JSX.Element {
  const overview = useCall('portfolio.overview', { accountId: props.accountId });
  if (overview.isPending) return <Loading label="Loading the account…" />;
  if (overview.isError) return <ErrorState error={overview.error} onRetry={() => void overview.refetch()} />;
  const o = overview.data;
  const a = o.account;
  const c = a.currency;
  return (
    <>
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <a href={href('/')}>Portfolio</a> <span aria-hidden="true">/</span> <span>{a.name}</span>
      </nav>
      <PageHeader
        title={a.name}
        subtitle={`${a.businessName || a.platformAccountId} · ${c} · ${a.timezone} · ${date(o.range.from)} – ${date(o.range.to)} vs ${date(o.previousRange.from)} – ${date(o.previousRange.to)} · synced ${relative(a.lastSyncedAt)}`}
        actions={
          <>
            <a className="button" href={href(`/campaigns?account=${a.accountId}`)}>
              Campaigns
            </a>
            <a className="button" href={href(`/diagnostics?account=${a.accountId}`)}>
              Diagnostics
            </a>
          </>
        }
      />
      {a.blocked || a.attention.reasons.length > 0 ? (
        <p className={`banner ${a.blocked ? 'banner-bad' : 'banner-warn'}`} role="status">
          Needs attention: {a.attention.reasons.join(' · ')}
        </p>
      ) : null}
      <Kpis o={o} />
      <section className="section" aria-labelledby="results-title">
        <h2 id="results-title">Results by result type</h2>
        <Results o={o} />
      </section>
      <div className="chart-grid">
        <TimeChart
          title={`Spend per day (${a.timezone})`}
          data={o.trend}
          series={[
            {
              key: 'spend',
              label: 'Spend',
              color: COLORS.primary,
              kind: 'bar',
              format: (v) => money(v, c),
              tick: (v) => money(v, c, 0),
            },
          ]}
          reference={a.dailyBudget !== null ? { value: a.dailyBudget, label: 'Daily budgets' } : undefined}
        />
      </div>
      <section className="section" aria-labelledby="top-issues-title">
        <h2 id="top-issues-title">Top open issues</h2>
        {o.topIssues.length === 0 ? (
          <Empty title="No open issue." />
        ) : (
          <ul className="overview-issues">
            {o.topIssues.map((i) => (
              <li key={i.id}>
                <RiskBadge level={i.severity} />{' '}
                <a href={href(`/diagnostics/${i.diagnosticId}`)}>{i.title}</a>
                <span className="muted small">
                  {' '}
                  · {i.campaignName ?? 'Whole account'} · since {date(i.openedAt)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="section" aria-labelledby="recent-changes-title">
        <h2 id="recent-changes-title">Recent changes</h2>
        {o.recentChanges.length === 0 ? (
          <Empty title="No changes synced for this account." />
        ) : (
          <ul className="overview-changes">
            {o.recentChanges.map((ch, n) => (
              <li key={`${ch.at}-${n}`}>
                <span className="muted small">{dateTime(ch.at)}</span> {ch.description}
                {ch.campaign ? (
                  <>
                    {' '}
                    · <a href={href(`/campaigns/${ch.campaign.id}`)}>{ch.campaign.name}</a>
                  </>
                ) : null}
                {ch.actor.name ? <span className="muted small"> · {ch.actor.name}</span> : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
