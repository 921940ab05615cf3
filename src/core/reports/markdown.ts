// The Markdown format: GitHub-flavoured Markdown with pipe tables, from the same ReportContent as the PDF.
import type { ReportCampaign, ReportContent } from '../../shared/api/reports';
import {
  formatChange,
  formatDate,
  formatDateRange,
  formatInt,
  formatMoney,
  formatPercent,
  formatRoas,
  formatTimestamp,
  humanize,
} from './format';

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

function campaignRow(c: ReportCampaign, currency: string): string[] {
  return [
    cell(c.name),
    formatMoney(c.spend, currency),
    formatInt(c.conversions),
    formatMoney(c.cpa, currency),
    formatRoas(c.roas),
    formatPercent(c.ctr),
    formatMoney(c.cpm, currency),
    c.riskLevel ?? 'No diagnostic',
  ];
}

function diagnosticsSection(content: ReportContent): string[] {
  const out: string[] = ['## Diagnostics', ''];
  for (const c of content.campaigns) {
    const d = c.latestDiagnostic;
    out.push(`### ${inline(c.name)}`, '');
    if (!d) {
      out.push('_No completed diagnostic covers this range._', '');
      continue;
    }
    out.push(
      `**Risk level: ${d.riskLevel}** · ${d.scope === 'account' ? 'account-wide ' : ''}diagnostic ` +
        `\`${d.id}\` of ${formatDateRange(d.dateRange)}, ` +
        `completed ${formatTimestamp(d.completedAt)}`,
      '',
      inline(d.summary),
      '',
    );
    if (d.issues.length > 0) {
      out.push(
        table(
          ['Severity', 'Issue', 'Details'],
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
      out.push('No issues detected.', '');
    }
    if (d.recommendations.length > 0) {
      out.push('**Recommendations**', '');
      d.recommendations.forEach((r, i) => {
        out.push(
          `${i + 1}. **${inline(r.action)}** ${inline(r.rationale)} _Expected impact: ${inline(r.expectedImpact)}_`,
        );
      });
      out.push('');
    }
  }
  return out;
}

export function renderMarkdown(content: ReportContent): string {
  const { account, summary, branding } = content;
  const currency = account.currency;
  const changes = summary.changes;
  const lines: string[] = [];
  if (branding.logo) lines.push(`![${inline(branding.companyName)} logo](${branding.logo})`, '');
  lines.push(
    `# ${inline(content.title)}`,
    '',
    `**${inline(branding.companyName)}** · ${inline(account.name)} (\`${account.platformAccountId}\`) · ` +
      `${formatDateRange(content.dateRange)}`,
    '',
    `Generated ${formatTimestamp(content.generatedAt)}. Amounts in ${currency}; changes compare with ` +
      `${formatDateRange(content.previousDateRange)}.`,
    '',
    '## Summary',
    '',
    table(
      ['Metric', 'Value', 'Change vs previous period'],
      ['left', 'right', 'right'],
      [
        ['Total spend', formatMoney(summary.totalSpend, currency), formatChange(changes.spendChange)],
        ['Total conversions', formatInt(summary.totalConversions), formatChange(changes.conversionsChange)],
        ['Average CPA', formatMoney(summary.avgCpa, currency), formatChange(changes.cpaChange)],
        ['Average ROAS', formatRoas(summary.avgRoas), formatChange(changes.roasChange)],
        ['Overall risk level', summary.overallRiskLevel, ''],
      ],
    ),
    '',
    `Impressions ${formatInt(content.totals.impressions)} · clicks ${formatInt(content.totals.clicks)} · ` +
      `CTR ${formatPercent(content.totals.ctr)} · CPM ${formatMoney(content.totals.cpm, currency)}`,
    '',
    '## Campaigns',
    '',
  );
  if (content.campaigns.length === 0) {
    lines.push('_No campaigns in this report._', '');
  } else {
    lines.push(
      table(
        ['Campaign', 'Spend', 'Conversions', 'CPA', 'ROAS', 'CTR', 'CPM', 'Risk level'],
        ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
        content.campaigns.map((c) => campaignRow(c, currency)),
      ),
      '',
    );
  }
  lines.push(
    '## Daily performance',
    '',
    table(
      ['Date', 'Spend', 'Conversions', 'CPA'],
      ['left', 'right', 'right', 'right'],
      content.daily.map((day) => [
        formatDate(day.date),
        formatMoney(day.spend, currency),
        formatInt(day.conversions),
        formatMoney(day.cpa, currency),
      ]),
    ),
    '',
    ...diagnosticsSection(content),
    '## Andromeda context',
    '',
    `Risk appetite **${content.andromedaContext.riskAppetite}** · focus metric ` +
      `**${content.andromedaContext.focusMetric}**. ${inline(content.andromedaContext.description)}`,
    '',
    '---',
    '',
    inline(branding.footerText),
    '',
  );
  return lines.join('\n');
}
