// `profile set|show|target-cpa`, `feedback`, `diagnose`: Andromeda preferences, feedback on
// recommendations, and a synchronous diagnostic from the command line.
import { z } from 'zod';
import { FocusMetricSchema, RiskAppetiteSchema, type DiagnosticDetail } from '../../shared/api/diagnostics';
import { addDays, dateInZone } from '../../core/clock';
import { DiagnosticsService } from '../../core/diagnostics/service';
import { AppError } from '../../core/errors';
import { requireWorkspace } from '../../core/identity/workspaces';
import type { Db } from '../../core/store/open';
import { cli, command, type CliContext, type CommandModule } from '../framework';

const workspace = z.string({ error: '--workspace WS is required' }).min(1);
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'dates look like YYYY-MM-DD');

function contextFor(ctx: CliContext, workspaceId: string, user: string | undefined) {
  const core = ctx.core();
  requireWorkspace(core.db, workspaceId);
  if (user) {
    const found = core.db
      .prepare(`SELECT 1 FROM users WHERE id = ? AND workspace_id = ?`)
      .get(user, workspaceId);
    if (!found) throw new AppError('not_found', `user ${user} is not in workspace ${workspaceId}`);
  }
  return { service: new DiagnosticsService(core), rc: { workspaceId, userId: user ?? null } };
}

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
      const { service, rc } = contextFor(ctx, input.workspace, input.user);
      service.setProfile(rc, {
        ...(input['risk-appetite'] ? { riskAppetite: input['risk-appetite'] } : {}),
        ...(input['focus-metric'] ? { focusMetric: input['focus-metric'] } : {}),
      });
      const profile = service.getProfile(rc);
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
      const { service, rc } = contextFor(ctx, input.workspace, input.user);
      const profile = service.getProfile(rc);
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
      const { service, rc } = contextFor(ctx, input.workspace, undefined);
      service.setTargetCpa(rc, input.campaign, input.clear ? null : (input.cpa ?? null));
      return {
        json: { campaignId: input.campaign, targetCpa: input.clear ? null : input.cpa },
        text: input.clear
          ? `${input.campaign}\ttarget CPA cleared`
          : `${input.campaign}\ttarget CPA ${input.cpa}`,
      };
    },
  }),
];

function workspaceOfDiagnostic(db: Db, id: string): string {
  const row = db.prepare(`SELECT workspace_id FROM diagnostics WHERE id = ?`).get(id) as
    { workspace_id: string } | undefined;
  if (!row) throw new AppError('not_found', `diagnostic ${id} not found`);
  return row.workspace_id;
}

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
      const db = ctx.core().db;
      const { service, rc } = contextFor(ctx, workspaceOfDiagnostic(db, input.diagnostic), input.user);
      const feedback = input.applied ? 'applied' : 'dismissed';
      const { actionKind } = service.feedback(rc, {
        diagnosticId: input.diagnostic,
        recommendationId: input.recommendation,
        feedback,
      });
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
      const { service, rc } = contextFor(ctx, input.workspace, input.user);
      const db = ctx.core().db;
      const target = input.campaign
        ? (db
            .prepare(
              `SELECT c.account_id AS accountId, a.timezone FROM campaigns c JOIN ad_accounts a ON a.id = c.account_id
               WHERE c.id = ? AND a.workspace_id = ?`,
            )
            .get(input.campaign, input.workspace) as { accountId: string; timezone: string } | undefined)
        : (db
            .prepare(
              `SELECT id AS accountId, timezone FROM ad_accounts WHERE (id = ? OR platform_account_id = ?) AND workspace_id = ?`,
            )
            .get(input.account, input.account, input.workspace) as
            { accountId: string; timezone: string } | undefined);
      if (!target)
        throw new AppError(
          'not_found',
          `${input.campaign ?? input.account} not found in workspace ${input.workspace}`,
        );
      const to = input.to ?? dateInZone(ctx.core().clock.now(), target.timezone);
      const from = input.from ?? addDays(to, -7);
      const detail = await service.runNow(rc, {
        accountId: target.accountId,
        campaignId: input.campaign ?? null,
        dateFrom: from,
        dateTo: to,
      });
      return {
        json: { diagnostic: detail },
        text: render(detail),
        exitCode: detail.status === 'completed' ? 0 : 1,
      };
    },
  }),
];

export default profileCommands;
