// `profile set|show|target-cpa`, `feedback`, `diagnose`: Andromeda preferences, feedback on
// recommendations, and a synchronous diagnostic from the command line.
import { z } from 'zod';
import { FocusMetricSchema, RiskAppetiteSchema, type DiagnosticDetail } from '../../shared/api/diagnostics';
import { cli, command, type CommandModule } from '../framework';

const workspace = z.string({ error: '--workspace WS is required' }).min(1);
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'dates look like YYYY-MM-DD');

export const profileCommands: CommandModule = [
  command({
    path: ['set'],
    summary: "sets a user's Andromeda profile (default user: the workspace owner)",
    options: {
      workspace: { type: 'string' },
      user: { type: 'string' },
      'risk-appetite': { type: 'string' },
      'focus-metric': { type: 'string' },
    },
    input: z
      .object({
        workspace,
        user: z.string().optional(),
        'risk-appetite': RiskAppetiteSchema.optional(),
        'focus-metric': FocusMetricSchema.optional(),
        positionals: cli.noPositionals,
      })
      .refine(
        (v) => v['risk-appetite'] || v['focus-metric'],
        '--risk-appetite LOW|MEDIUM|HIGH or --focus-metric ROAS|CPA|CTR|CONVERSIONS is required',
      ),
    async run(ctx, input) {
      const { use } = ctx.app();
      const profile = await use.diagnostics.setProfile(
        await use.identity.contextForMember(input.workspace, input.user),
        {
          ...(input['risk-appetite'] ? { riskAppetite: input['risk-appetite'] } : {}),
          ...(input['focus-metric'] ? { focusMetric: input['focus-metric'] } : {}),
        },
      );
      return {
        json: { profile },
        text: `${profile.userId}\triskAppetite ${profile.riskAppetite}\tfocusMetric ${profile.focusMetric}`,
      };
    },
  }),
  command({
    path: ['show'],
    summary: "shows a user's Andromeda profile",
    options: { workspace: { type: 'string' }, user: { type: 'string' } },
    input: z.object({ workspace, user: z.string().optional(), positionals: cli.noPositionals }),
    async run(ctx, input) {
      const { use } = ctx.app();
      const profile = await use.diagnostics.profile(
        await use.identity.contextForMember(input.workspace, input.user),
      );
      return {
        json: { profile },
        text: `${profile.userId ?? '(no user)'}\triskAppetite ${profile.riskAppetite}\tfocusMetric ${profile.focusMetric}${profile.updatedAt ? '' : '\t(defaults)'}`,
      };
    },
  }),
  command({
    path: ['target-cpa'],
    summary: "sets (or clears) a campaign's target cost per result, used when it has no cost cap",
    options: {
      workspace: { type: 'string' },
      campaign: { type: 'string' },
      cpa: { type: 'string' },
      clear: { type: 'boolean' },
    },
    input: z
      .object({
        workspace,
        campaign: z.string({ error: '--campaign camp_… is required' }).min(1),
        cpa: z.coerce.number().positive().max(1e9).optional(),
        clear: z.boolean().optional(),
        positionals: cli.noPositionals,
      })
      .refine((v) => (v.cpa !== undefined) !== (v.clear === true), 'give --cpa AMOUNT or --clear'),
    async run(ctx, input) {
      const { use } = ctx.app();
      const set = await use.campaigns.setTargetCpa(
        await use.identity.contextForWorkspace(input.workspace),
        input.campaign,
        input.clear ? null : (input.cpa ?? null),
      );
      return {
        json: set,
        text: input.clear
          ? `${input.campaign}\ttarget CPA cleared`
          : `${input.campaign}\ttarget CPA ${input.cpa}`,
      };
    },
  }),
];

export const feedbackCommands: CommandModule = [
  command({
    path: [],
    summary:
      'records whether a recommendation was applied or dismissed (re-weights later rankings for that user)',
    options: {
      diagnostic: { type: 'string' },
      recommendation: { type: 'string' },
      applied: { type: 'boolean' },
      dismissed: { type: 'boolean' },
      user: { type: 'string' },
    },
    input: z
      .object({
        diagnostic: z
          .string({ error: '--diagnostic diag_… is required' })
          .regex(/^diag_[0-9A-Za-z]{16}$/, 'diagnostic IDs look like diag_…'),
        recommendation: z
          .string({ error: '--recommendation rec_N is required' })
          .regex(/^rec_\d+$/, 'recommendation IDs look like rec_1'),
        applied: z.boolean().optional(),
        dismissed: z.boolean().optional(),
        user: z.string().optional(),
        positionals: cli.noPositionals,
      })
      .refine((v) => v.applied !== v.dismissed, 'give exactly one of --applied or --dismissed'),
    async run(ctx, input) {
      const { use } = ctx.app();
      const admin = await use.identity.contextForWorkspaceOf({ diagnosticId: input.diagnostic });
      const feedback = input.applied ? 'applied' : 'dismissed';
      const { actionKind } = await use.diagnostics.feedback(
        await use.identity.contextForMember(admin.workspaceId, input.user),
        {
          diagnosticId: input.diagnostic,
          recommendationId: input.recommendation,
          feedback,
        },
      );
      return {
        json: {
          diagnosticId: input.diagnostic,
          recommendationId: input.recommendation,
          feedback,
          actionKind,
        },
        text: `${input.diagnostic} ${input.recommendation}: ${feedback} (${actionKind})`,
      };
    },
  }),
];

function render(d: DiagnosticDetail): string {
  const lines = [
    `${d.id}\t${d.status}\trisk ${d.riskLevel ?? '-'}\t${d.dateRange.from}..${d.dateRange.to}`,
    d.summary ?? '',
  ];
  for (const i of d.issues) lines.push(`  ${i.id} ${i.type} ${i.severity}: ${i.title}`);
  for (const r of d.recommendations)
    lines.push(`  ${r.id} (${r.riskLevel}) ${r.action}\n      → ${r.expectedImpact}`);
  if (d.andromedaContext) lines.push(`  Andromeda: ${d.andromedaContext.adaptations}`);
  if (d.error) lines.push(`  error: ${d.error.type}: ${d.error.message}`);
  return lines.join('\n');
}

export const diagnoseCommands: CommandModule = [
  command({
    path: [],
    summary: 'runs a diagnostic of a campaign (or of a whole account) now and prints it',
    options: {
      workspace: { type: 'string' },
      campaign: { type: 'string' },
      account: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      user: { type: 'string' },
    },
    input: z
      .object({
        workspace,
        campaign: z.string().optional(),
        account: z.string().optional(),
        from: date.optional(),
        to: date.optional(),
        user: z.string().optional(),
        positionals: cli.noPositionals,
      })
      .refine((v) => v.campaign || v.account, '--campaign camp_… or --account act_… is required'),
    async run(ctx, input) {
      const { use } = ctx.app();
      const detail = await use.diagnostics.runNow(
        await use.identity.contextForMember(input.workspace, input.user),
        {
          accountId: input.account,
          campaignId: input.campaign ?? null,
          dateStart: input.from,
          dateEnd: input.to,
        },
      );
      return {
        json: { diagnostic: detail },
        text: render(detail),
        exitCode: detail.status === 'completed' ? 0 : 1,
      };
    },
  }),
];

export default profileCommands;
