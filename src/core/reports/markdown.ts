// The Markdown format: GitHub-flavoured Markdown with pipe tables, from the same ReportContent as the PDF.
import type { GoalActual, Kpi, ReportCampaign, ReportContent } from '../../shared/api/reports';
import { parseCommentary } from '../../shared/api/commentary';
import { humanize, reportFormatter, type ReportFormatter } from './format';
import { translator, type Translate } from '../../shared/report-i18n';

/** Text inside a table cell: pipes escaped, line breaks flattened, inline markup neutralised. */
export function cell(text: string): string {
  return inline(text).replace(/\r?\n|\r/g, ' ');
}

/** Running text: characters with a Markdown meaning are escaped so names print as written. */
export function inline(text: string): string {
  return text.replace(/[\\`*_[\]<>|~#]/g, (ch) => `\\${ch}`);
}

function table(headers: string[], align: Array<'left' | 'right'>, rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const rule = align.map((a) => (a === 'right' ? '---:' : ':---'));
  return [line(headers), line(rule), ...rows.map(line)].join('\n');
}

function campaignRow(f: ReportFormatter, t: Translate, c: ReportCampaign, currency: string): string[] {
  return [
    cell(c.name),
    cell(c.resultName ?? t('conversions')),
    f.money(c.spend, currency),
    f.int(c.conversions),
    f.money(c.cpa, currency),
    f.roas(c.roas),
    f.percent(c.ctr),
    f.money(c.cpm, currency),
    c.riskLevel ?? t('noDiagnostic'),
  ];
}

function diagnosticsSection(f: ReportFormatter, t: Translate, content: ReportContent): string[] {
  const out: string[] = [`## ${t('diagnostics')}`, ''];
  for (const c of content.campaigns) {
    const d = c.latestDiagnostic;
    out.push(`### ${inline(c.name)}`, '');
    if (!d) {
      out.push(`_${t('noDiagnosticInRange')}_`, '');
      continue;
    }
    out.push(
      `**${t('riskLevelIs', { level: d.riskLevel })}** · ` +
        t(d.scope === 'account' ? 'mdAccountDiagnosticLine' : 'mdDiagnosticLine', {
          id: `\`${d.id}\``,
          range: f.dateRange(d.dateRange),
          timestamp: f.timestamp(d.completedAt),
        }),
      '',
      inline(d.summary),
      '',
    );
    if (d.issues.length > 0) {
      out.push(
        table(
          [t('severity'), t('issue'), t('details')],
          ['left', 'left', 'left'],
          d.issues.map((issue) => [
            issue.severity,
            cell(`${humanize(issue.type)}: ${issue.title}`),
            cell(issue.description),
          ]),
        ),
        '',
      );
    } else {
      out.push(t('noIssues'), '');
    }
    if (d.recommendations.length > 0) {
      out.push(`**${t('recommendations')}**`, '');
      d.recommendations.forEach((r, i) => {
        out.push(
          `${i + 1}. **${inline(r.action)}** ${inline(r.rationale)} _${t('expectedImpact', { impact: inline(r.expectedImpact) })}_`,
        );
      });
      out.push('');
    }
  }
  return out;
}

function commentarySection(t: Translate, content: ReportContent): string[] {
  const out = [`## ${t('commentary')}`, ''];
  for (const block of parseCommentary(content.commentary)) {
    const text = block.runs
      .map((r) => (r.bold ? `**${inline(r.text)}**` : r.italic ? `_${inline(r.text)}_` : inline(r.text)))
      .join('');
    out.push(block.kind === 'bullet' ? `- ${text}` : `${text}\n`);
  }
  if (out[out.length - 1] !== '') out.push('');
  return out;
}

function kpiSection(f: ReportFormatter, t: Translate, content: ReportContent): string[] {
  const currency = content.account.currency;
  const value = (k: Kpi, v: number | null) =>
    k.metric === 'results'
      ? v === null
        ? '–'
        : f.int(v)
      : k.metric === 'roas'
        ? f.roas(v)
        : f.money(v, currency);
  const label = (k: Kpi) =>
    k.metric === 'spend'
      ? t('totalSpend')
      : k.metric === 'results'
        ? cell(k.resultName ?? t('results'))
        : k.metric === 'costPerResult'
          ? `${t('costPerResult')}${k.resultName ? ` · ${cell(k.resultName)}` : ''}`
          : t('averageRoas');
  return [
    `## ${t('keyFigures')}`,
    '',
    table(
      [t('metric'), t('value'), t('previousValue', { value: '' }).trim(), t('changeVsPrevious')],
      ['left', 'right', 'right', 'right'],
      [
        ...content.kpis.map((k) => [label(k), value(k, k.value), value(k, k.previous), f.change(k.change)]),
        [t('overallRiskLevel'), content.summary.overallRiskLevel, '', ''],
      ],
    ),
    '',
  ];
}

function goalsSection(f: ReportFormatter, t: Translate, content: ReportContent): string[] {
  const currency = content.account.currency;
  if (content.goals.length === 0) return [`## ${t('goalsVsActuals')}`, '', `_${t('noGoals')}_`, ''];
  const value = (g: GoalActual, v: number | null) => (g.kind === 'CPA' ? f.money(v, currency) : f.roas(v));
  return [
    `## ${t('goalsVsActuals')}`,
    '',
    table(
      [t('campaign'), t('goal'), t('actual'), t('status')],
      ['left', 'left', 'right', 'left'],
      content.goals.map((g) => [
        cell(g.campaignName ?? t('wholeAccount')),
        cell(
          `${t(g.kind === 'CPA' ? 'goalCpa' : 'goalRoas', { target: value(g, g.target) })}${
            g.source === 'account' && g.campaignId ? ` ${t('goalFromAccount')}` : ''
          }`,
        ),
        value(g, g.actual),
        g.met === null ? t('goalNoData') : g.met ? t('goalMet') : t('goalMissed'),
      ]),
    ),
    '',
  ];
}

export function renderMarkdown(content: ReportContent): string {
  const { account, summary, branding } = content;
  const currency = account.currency;
  const changes = summary.changes;
  const f = reportFormatter(content.locale);
  const t = translator(content.locale);
  const on = new Set(content.sections);
  const single = content.results.length === 1 ? content.results[0] : undefined;
  const lines: string[] = [];
  if (branding.logo) lines.push(`![${inline(branding.companyName)} logo](${branding.logo})`, '');
  lines.push(
    `# ${inline(content.title)}`,
    '',
    `**${inline(branding.companyName)}** · ${inline(account.name)} (\`${account.platformAccountId}\`) · ` +
      `${f.dateRange(content.dateRange)}`,
    '',
    t('mdIntro', {
      timestamp: f.timestamp(content.generatedAt),
      currency,
      range: f.dateRange(content.previousDateRange),
    }),
    '',
  );
  if (on.has('commentary')) lines.push(...commentarySection(t, content));
  if (on.has('kpis')) lines.push(...kpiSection(f, t, content));
  if (on.has('summary')) {
    lines.push(
      `## ${t('summary')}`,
      '',
      table(
        [t('metric'), t('value'), t('changeVsPrevious')],
        ['left', 'right', 'right'],
        [
          [t('totalSpend'), f.money(summary.totalSpend, currency), f.change(changes.spendChange)],
          // Results per result type, never one sum across types; ROAS only with purchase value.
          ...(single
            ? [
                [
                  cell(single.resultName ?? t('totalConversions')),
                  f.int(single.results),
                  f.change(changes.conversionsChange),
                ],
                [t('costPerResult'), f.money(single.costPerResult, currency), f.change(changes.cpaChange)],
              ]
            : content.results.map((r) => [
                cell(r.resultName ?? t('conversions')),
                `${f.int(r.results)} (${t('costPerResult')} ${f.money(r.costPerResult, currency)})`,
                '',
              ])),
          ...(content.revenue > 0
            ? [[t('averageRoas'), f.roas(summary.avgRoas), f.change(changes.roasChange)]]
            : []),
          [t('overallRiskLevel'), summary.overallRiskLevel, ''],
        ],
      ),
      '',
      t('totalsLine', {
        impressions: f.int(content.totals.impressions),
        clicks: f.int(content.totals.clicks),
        ctr: f.percent(content.totals.ctr),
        cpm: f.money(content.totals.cpm, currency),
      }),
      '',
    );
  }
  if (on.has('goals')) lines.push(...goalsSection(f, t, content));
  if (on.has('campaigns')) {
    lines.push(`## ${t('campaigns')}`, '');
    if (content.campaigns.length === 0) {
      lines.push(`_${t('noCampaigns')}_`, '');
    } else {
      lines.push(
        table(
          [
            t('campaign'),
            t('result'),
            t('spend'),
            t('results'),
            t('costPerResult'),
            t('roas'),
            t('ctr'),
            t('cpm'),
            t('riskLevel'),
          ],
          ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
          content.campaigns.map((c) => campaignRow(f, t, c, currency)),
        ),
        '',
      );
    }
  }
  if (on.has('trend')) {
    lines.push(
      `## ${t('dailyPerformance')}`,
      '',
      table(
        [t('date'), t('spend'), t('conversions'), t('cpa')],
        ['left', 'right', 'right', 'right'],
        content.daily.map((day) => [
          f.date(day.date),
          f.money(day.spend, currency),
          f.int(day.conversions),
          f.money(day.cpa, currency),
        ]),
      ),
      '',
    );
  }
  if (on.has('diagnostics')) {
    lines.push(
      ...diagnosticsSection(f, t, content),
      `## ${t('andromedaContext')}`,
      '',
      `${t('andromedaLine', {
        appetite: `**${content.andromedaContext.riskAppetite}**`,
        focus: `**${content.andromedaContext.focusMetric}**`,
      })}. ${inline(content.andromedaContext.description)}`,
      '',
    );
  }
  lines.push('---', '', inline(branding.footerText), '');
  return lines.join('\n');
}
