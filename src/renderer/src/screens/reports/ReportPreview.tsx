// The report before it is generated: the same content model the PDF, Markdown and JSON render,
// shown as a page in the window (cover, commentary, key figures, goals, campaigns, diagnostics),
// each section only when it is switched on, in the report's own language (the PDF's catalogue).
import type { Kpi, ReportContent } from '../../../../shared/api/reports';
import { parseCommentary, type CommentaryBlock } from '../../../../shared/api/commentary';
import { translator, type MessageKey, type Translate } from '../../../../shared/report-i18n';
import { date, integer, money, ratio } from '../../format';

const KPI_LABEL: Record<Kpi['metric'], MessageKey> = {
  spend: 'totalSpend',
  results: 'results',
  costPerResult: 'costPerResult',
  roas: 'roas',
};

function kpiValue(kpi: Kpi, value: number | null, currency: string): string {
  if (kpi.metric === 'results') return integer(value);
  if (kpi.metric === 'roas') return value === null ? '–' : ratio(value);
  return money(value, currency);
}

function change(t: Translate, value: number | null): string {
  if (value === null) return t('noPreviousData');
  const sign = value > 0 ? '+' : value < 0 ? '−' : '±';
  return t('vsPrevious', { change: `${sign}${Math.abs(value).toFixed(1)}%` });
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
  const t = translator(c.locale);
  const on = new Set(c.sections);
  const currency = c.account.currency;
  const accent = c.branding.primaryColor;
  const company = c.branding.companyName;
  return (
    <article
      className="report-preview"
      aria-label="Report preview"
      lang={c.locale}
      style={{ ['--brand' as string]: accent }}
    >
      <header className="preview-cover">
        {c.branding.logo ? (
          <img src={c.branding.logo} alt={t('logoOf', { company })} className="preview-logo" />
        ) : (
          <span className="preview-wordmark">{company}</span>
        )}
        <h3>{c.title}</h3>
        <p>
          {c.account.name} · {date(c.dateRange.from)} – {date(c.dateRange.to)}
        </p>
        <p className="muted small">
          {t('preparedBy', { company })} · {t('languageName')}
        </p>
      </header>
      {on.has('commentary') && c.commentary ? (
        <section>
          <h4>{t('commentary')}</h4>
          <Commentary blocks={parseCommentary(c.commentary)} />
        </section>
      ) : null}
      {on.has('kpis') ? (
        <section>
          <h4>{t('keyFigures')}</h4>
          <div className="preview-kpis">
            {c.kpis.map((k) => (
              <div key={`${k.metric}:${k.resultName ?? ''}`} className="preview-kpi">
                <span className="muted small">
                  {k.resultName && k.metric !== 'spend'
                    ? `${t(KPI_LABEL[k.metric])} · ${k.resultName}`
                    : t(KPI_LABEL[k.metric])}
                </span>
                <strong>{kpiValue(k, k.value, currency)}</strong>
                <span className={`small tone-${k.tone}`}>{change(t, k.change)}</span>
              </div>
            ))}
            <div className="preview-kpi">
              <span className="muted small">{t('overallRisk')}</span>
              <strong>{c.summary.overallRiskLevel}</strong>
            </div>
          </div>
        </section>
      ) : null}
      {on.has('goals') ? (
        <section>
          <h4>{t('goalsVsActuals')}</h4>
          {c.goals.length === 0 ? (
            <p className="muted small">{t('noGoals')}</p>
          ) : (
            <table className="table compact">
              <thead>
                <tr>
                  <th scope="col">{t('campaign')}</th>
                  <th scope="col">{t('goal')}</th>
                  <th scope="col" className="num">
                    {t('actual')}
                  </th>
                  <th scope="col">{t('status')}</th>
                </tr>
              </thead>
              <tbody>
                {c.goals.map((g) => (
                  <tr key={g.campaignId ?? 'account'}>
                    <td>{g.campaignName ?? t('wholeAccount')}</td>
                    <td>
                      {g.kind === 'CPA'
                        ? t('goalCpa', { target: money(g.target, currency) })
                        : t('goalRoas', { target: ratio(g.target) })}
                    </td>
                    <td className="num">
                      {g.kind === 'CPA'
                        ? money(g.actual, currency)
                        : g.actual === null
                          ? '–'
                          : ratio(g.actual)}
                    </td>
                    <td>{g.met === null ? t('goalNoData') : g.met ? t('goalMet') : t('goalMissed')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ) : null}
      {on.has('trend') ? (
        <section>
          <h4>{t('trend')}</h4>
          <p className="muted small">{t('trendNote', { days: c.daily.length })}</p>
        </section>
      ) : null}
      {on.has('campaigns') ? (
        <section>
          <h4>{t('campaignsCount', { count: c.campaigns.length })}</h4>
          <table className="table compact">
            <thead>
              <tr>
                <th scope="col">{t('campaign')}</th>
                <th scope="col">{t('result')}</th>
                <th scope="col" className="num">
                  {t('spend')}
                </th>
                <th scope="col" className="num">
                  {t('results')}
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
            <p className="muted small">{t('moreInReport', { count: c.campaigns.length - 8 })}</p>
          ) : null}
        </section>
      ) : null}
      {on.has('diagnostics') ? (
        <section>
          <h4>{t('diagnostics')}</h4>
          <p className="muted small">
            {t('diagnosticsCoverage', {
              covered: c.campaigns.filter((x) => x.latestDiagnostic).length,
              count: c.campaigns.length,
            })}
          </p>
        </section>
      ) : null}
      <footer className="muted small">{c.branding.footerText}</footer>
    </article>
  );
}
