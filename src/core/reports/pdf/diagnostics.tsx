// One block per campaign: its latest diagnostic in range (summary, issues, recommendations).
import { Text, View } from '@react-pdf/renderer';
import type { ReportCampaign } from '../../../shared/api/reports';
import type { RiskLevel } from '../../../shared/api/diagnostics';
import { humanize, type ReportFormatter } from '../format';
import type { Translate } from '../../../shared/report-i18n';
import { INK, MUTED, RISK_COLOURS, RULE, tint } from './theme';

const RISK_SET = new Set(Object.keys(RISK_COLOURS));

/** Ends a phrase with a full stop unless it already ends with punctuation. */
function sentence(text: string): string {
  return /[.!?…:;]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

function Badge(props: { level: string; width?: number }): React.JSX.Element {
  const colour = RISK_SET.has(props.level) ? RISK_COLOURS[props.level as RiskLevel] : MUTED;
  const badge = (
    <Text
      style={{
        fontSize: 7,
        fontWeight: 'bold',
        color: colour,
        backgroundColor: tint(colour, 0.88),
        paddingHorizontal: 4,
        paddingVertical: 1.5,
        borderRadius: 2,
        alignSelf: 'flex-start',
      }}
    >
      {props.level}
    </Text>
  );
  return props.width ? <View style={{ width: props.width }}>{badge}</View> : badge;
}

const RISK_ORDER = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];

/** Campaigns with a diagnostic first (highest risk first), then one line naming those without. */
export function DiagnosticsSection(props: {
  campaigns: ReportCampaign[];
  accent: string;
  f: ReportFormatter;
  t: Translate;
}): React.JSX.Element {
  const withDiagnostic = props.campaigns
    .filter((c) => c.latestDiagnostic)
    .sort(
      (a, b) =>
        RISK_ORDER.indexOf(a.latestDiagnostic?.riskLevel ?? 'LOW') -
          RISK_ORDER.indexOf(b.latestDiagnostic?.riskLevel ?? 'LOW') || b.spend - a.spend,
    );
  const without = props.campaigns.filter((c) => !c.latestDiagnostic);
  return (
    <View>
      {withDiagnostic.map((campaign) => (
        <CampaignDiagnostic
          key={campaign.id}
          campaign={campaign}
          accent={props.accent}
          f={props.f}
          t={props.t}
        />
      ))}
      {without.length > 0 ? (
        <View style={{ marginBottom: 12 }}>
          <Text style={{ fontSize: 9, fontWeight: 'bold', color: INK, marginBottom: 3 }}>
            {without.length === 1
              ? props.t('noDiagnosticCoversOne')
              : props.t('noDiagnosticCovers', { count: without.length })}
          </Text>
          <Text style={{ fontSize: 8.5, color: MUTED, lineHeight: 1.4 }}>
            {without.map((c) => c.name).join(' · ')}
          </Text>
        </View>
      ) : null}
    </View>
  );
}

// Each issue and recommendation is one paragraph with styled runs rather than a stack of blocks: the
// layout cost of a PDF grows with its block count, and diagnostics are most of the blocks.
function CampaignDiagnostic(props: {
  campaign: ReportCampaign;
  accent: string;
  f: ReportFormatter;
  t: Translate;
}): React.JSX.Element | null {
  const { campaign, f, t } = props;
  const d = campaign.latestDiagnostic;
  if (!d) return null;
  return (
    <View
      wrap={false}
      style={{ marginBottom: 12, borderBottomWidth: 0.5, borderBottomColor: RULE, paddingBottom: 8 }}
    >
      <View
        style={{
          flexDirection: 'row',
          alignItems: 'center',
          justifyContent: 'space-between',
          marginBottom: 4,
        }}
      >
        <Text style={{ fontSize: 10, fontWeight: 'bold', color: INK, maxWidth: 420 }}>{campaign.name}</Text>
        <Badge level={d.riskLevel} />
      </View>
      <Text style={{ fontSize: 9, color: INK, lineHeight: 1.4, marginBottom: 5 }}>
        {d.summary}{' '}
        <Text style={{ fontSize: 7.5, color: MUTED }}>
          {t(d.scope === 'account' ? 'accountDiagnosticOf' : 'diagnosticOf', {
            range: f.dateRange(d.dateRange),
            timestamp: f.timestamp(d.completedAt),
          })}
        </Text>
      </Text>
      {d.issues.length === 0 ? (
        <Text style={{ fontSize: 8.5, color: MUTED }}>{t('noIssues')}</Text>
      ) : (
        d.issues.map((issue) => (
          <View key={issue.id} wrap={false} style={{ flexDirection: 'row', marginBottom: 3 }}>
            <Badge level={issue.severity} width={58} />
            <Text style={{ flexGrow: 1, flexBasis: 0, fontSize: 8.5, color: INK, lineHeight: 1.35 }}>
              <Text style={{ fontWeight: 'bold' }}>
                {humanize(issue.type)}: {sentence(issue.title)}
              </Text>{' '}
              {issue.description}
            </Text>
          </View>
        ))
      )}
      {d.recommendations.length > 0 ? (
        <Text
          style={{ fontSize: 8.5, fontWeight: 'bold', color: props.accent, marginTop: 4, marginBottom: 2 }}
        >
          {t('recommendations')}
        </Text>
      ) : null}
      {d.recommendations.map((r, i) => (
        <View key={r.id} wrap={false} style={{ flexDirection: 'row', marginBottom: 3 }}>
          <Text style={{ width: 14, fontSize: 8.5, fontWeight: 'bold', color: props.accent }}>{i + 1}.</Text>
          <Text style={{ flexGrow: 1, flexBasis: 0, fontSize: 8.5, color: INK, lineHeight: 1.35 }}>
            <Text style={{ fontWeight: 'bold' }}>{sentence(r.action)}</Text> {sentence(r.rationale)}{' '}
            <Text style={{ fontStyle: 'italic', color: MUTED }}>
              {t('expectedImpact', { impact: sentence(r.expectedImpact) })}
            </Text>
          </Text>
        </View>
      ))}
    </View>
  );
}
