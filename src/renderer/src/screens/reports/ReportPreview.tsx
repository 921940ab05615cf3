// The report before it is generated: the same content model the PDF, Markdown and JSON render,
// shown as a page in the window (cover, commentary, key figures, goals, campaigns, diagnostics),
// each section only when it is switched on.
import type { Kpi, ReportContent } from '../../../../shared/api/reports';
import { parseCommentary, type CommentaryBlock } from '../../../../shared/api/commentary';
import { date, integer, money, ratio } from '../../format';

const KPI_LABEL: Record<Kpi['metric'], string> = {
  spend: 'Total spend',
  results: 'Results',
  costPerResult: 'Cost per result',
  roas: 'ROAS',
};

function kpiValue(kpi: Kpi, value: number | null, currency: string): string {
  if (kpi.metric === 'results') return integer(value);
  if (kpi.metric === 'roas') return value === null ? '–' : ratio(value);
  return money(value, currency);
}

function change(value: number | null): string {
  if (value === null) return 'no previous data';
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value).toFixed(1)}% vs previous`;
}

function Commentary(props: { blocks: CommentaryBlock[] }): React.JSX.Element {
  const runs = (block: CommentaryBlock) =>
    block.runs.map((r, i) =>
      r.bold ? (
        <strong key={i}>{r.text}</strong>
      ) : r.italic ? (
        <em key={i}>{r.text}</em>
      ) : (
        <span key={i}>{r.text}</span>
      ),
    );
  const out: React.JSX.Element[] = [];
  let bullets: CommentaryBlock[] = [];
  const flush = () => {
    if (bullets.length > 0)
      out.push(
        <ul key={`ul${out.length}`}>
          {bullets.map((b, i) => (
            <li key={i}>{runs(b)}</li>
          ))}
        </ul>,
      );
    bullets = [];
  };
  for (const block of props.blocks) {
    if (block.kind === 'bullet') bullets.push(block);
    else {
      flush();
      out.push(<p key={`p${out.length}`}>{runs(block)}</p>);
    }
  }
  flush();
  return <div className="preview-commentary">{out}</div>;
}

export function ReportPreview(props: { content: ReportContent }): React.JSX.Element {
  const c = props.content;
  const on = new Set(c.sections);
  const currency = c.account.currency;
  const accent = c.branding.primaryColor;
  return (
    <article className="report-preview" aria-label="Report preview" style={{ ['--brand' as string]: accent }}>
      <header className="preview-cover">
        {c.branding.logo ? (
          <img src={c.branding.logo} alt={`${c.branding.companyName} logo`} className="preview-logo" />
        ) : (
          <span className="preview-wordmark">{c.branding.companyName}</span>
        )}
        <h3>{c.title}</h3>
        <p>
          {c.account.name} · {date(c.dateRange.from)} – {date(c.dateRange.to)}
        </p>
        <p className="muted small">
          Prepared by {c.branding.companyName} · {c.locale === 'ja' ? 'Japanese' : 'English'}
        </p>
      </header>
      {on.has('commentary') && c.commentary ? (
        <section>
          <h4>Analyst commentary</h4>
          <Commentary blocks={parseCommentary(c.commentary)} />
        </section>
      ) : null}
      {on.has('kpis') ? (
        <section>
          <h4>Key figures</h4>
          <div className="preview-kpis">
            {c.kpis.map((k) => (
              <div key={`${k.metric}:${k.resultName ?? ''}`} className="preview-kpi">
                <span className="muted small">
                  {k.resultName && k.metric !== 'spend'
                    ? `${KPI_LABEL[k.metric]} · ${k.resultName}`
                    : KPI_LABEL[k.metric]}
                </span>
                <strong>{kpiValue(k, k.value, currency)}</strong>
                <span className={`small tone-${k.tone}`}>{change(k.change)}</span>
              </div>
            ))}
            <div className="preview-kpi">
              <span className="muted small">Overall risk</span>
              <strong>{c.summary.overallRiskLevel}</strong>
            </div>
          </div>
        </section>
      ) : null}
      {on.has('goals') ? (
        <section>
          <h4>Goals against actuals</h4>
          {c.goals.length === 0 ? (
            <p className="muted small">No goals are set for this account.</p>
          ) : (
            <table className="table compact">
              <thead>
                <tr>
                  <th scope="col">Campaign</th>
                  <th scope="col">Goal</th>
                  <th scope="col" className="num">
                    Actual
                  </th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {c.goals.map((g) => (
                  <tr key={g.campaignId ?? 'account'}>
                    <td>{g.campaignName ?? 'Whole account'}</td>
                    <td>
                      {g.kind === 'CPA' ? `CPA ≤ ${money(g.target, currency)}` : `ROAS ≥ ${ratio(g.target)}`}
                    </td>
                    <td className="num">
                      {g.kind === 'CPA'
                        ? money(g.actual, currency)
                        : g.actual === null
                          ? '–'
                          : ratio(g.actual)}
                    </td>
                    <td>{g.met === null ? 'No data' : g.met ? 'Met' : 'Missed'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ) : null}
      {on.has('trend') ? (
        <section>
          <h4>Trend</h4>
          <p className="muted small">
            Daily spend and results over {c.daily.length} days, with the daily table.
          </p>
        </section>
      ) : null}
      {on.has('campaigns') ? (
        <section>
          <h4>Campaigns ({c.campaigns.length})</h4>
          <table className="table compact">
            <thead>
              <tr>
                <th scope="col">Campaign</th>
                <th scope="col">Result</th>
                <th scope="col" className="num">
                  Spend
                </th>
                <th scope="col" className="num">
                  Results
                </th>
              </tr>
            </thead>
            <tbody>
              {c.campaigns.slice(0, 8).map((row) => (
                <tr key={row.id}>
                  <td>{row.name}</td>
                  <td>{row.resultName ?? '–'}</td>
                  <td className="num">{money(row.spend, currency)}</td>
                  <td className="num">{integer(row.conversions)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {c.campaigns.length > 8 ? (
            <p className="muted small">…and {c.campaigns.length - 8} more in the report.</p>
          ) : null}
        </section>
      ) : null}
      {on.has('diagnostics') ? (
        <section>
          <h4>Diagnostics</h4>
          <p className="muted small">
            {c.campaigns.filter((x) => x.latestDiagnostic).length} of {c.campaigns.length} campaigns have a
            diagnostic in this range.
          </p>
        </section>
      ) : null}
      <footer className="muted small">{c.branding.footerText}</footer>
    </article>
  );
}
