// `issues list|ack|snooze` and `schedule show|set`: the issues the watcher and the analysts' diagnoses
// keep, and how often accounts sync on their own. Translation only: the rules are in the use cases.
import { z } from 'zod';
import { ISSUE_STATES, type IssueState, type TrackedIssue } from '../../shared/api/issues';
import type { SyncSchedule } from '../../shared/api/watch';
import { cli, command, type CommandModule } from '../framework';

const workspace = z.string({ error: '--workspace WS is required' }).min(1);
const issueId = z
  .array(z.string().regex(/^iss_[0-9A-Za-z]{16}$/, 'give the issue ID (iss_…)'))
  .length(1, 'give one ISSUE_ID');

const issueLine = (i: TrackedIssue): string =>
  `${i.id}\t${i.state}\t${i.severity}\t${i.type}\t${i.accountName}\t${i.campaignName ?? '(account)'}\t${i.updatedAt}`;
const scheduleLine = (s: SyncSchedule): string =>
  `${s.accountId}\tevery ${s.intervalMinutes} min (${s.intervalSource})\tnext ${s.nextSyncAt ?? '-'}\tfull ${s.nextFullSyncAt ?? '-'}${s.backoffUntil ? `\tbacking off until ${s.backoffUntil} (${s.lastFailure ?? ''})` : ''}`;

export const issueCommands: CommandModule = [
  command({
    path: ['list'],
    summary: 'lists issues (default: the live ones), worst first',
    options: {
      workspace: { type: 'string' },
      account: { type: 'string' },
      campaign: { type: 'string' },
      state: { type: 'string' },
    },
    input: z.object({
      workspace,
      account: z.string().optional(),
      campaign: z.string().optional(),
      state: z
        .string()
        .refine(
          (v) => v.split(',').every((s) => (ISSUE_STATES as readonly string[]).includes(s)),
          `--state is a comma-separated list of ${ISSUE_STATES.join(', ')}`,
        )
        .optional(),
      positionals: cli.noPositionals,
    }),
    async run(ctx, input) {
      const { identity, issues } = ctx.app().use;
      const list = await issues.list(await identity.contextForWorkspace(input.workspace), {
        accountId: input.account,
        campaignId: input.campaign,
        states: input.state ? (input.state.split(',') as IssueState[]) : undefined,
        pageSize: 100,
      });
      return { json: list, text: list.items.map(issueLine).join('\n') || '(no issues)' };
    },
  }),
  command({
    path: ['ack'],
    summary: 'acknowledges an issue (open again if it gets worse)',
    options: { workspace: { type: 'string' } },
    input: z.object({ workspace, positionals: issueId }),
    async run(ctx, input) {
      const { identity, issues } = ctx.app().use;
      const issue = await issues.acknowledge(
        await identity.contextForWorkspace(input.workspace),
        input.positionals[0] as string,
      );
      return { json: { issue }, text: issueLine(issue) };
    },
  }),
  command({
    path: ['snooze'],
    summary: 'snoozes an issue --until YYYY-MM-DD and/or --until-worse',
    options: { workspace: { type: 'string' }, until: { type: 'string' }, 'until-worse': { type: 'boolean' } },
    input: z
      .object({
        workspace,
        until: z.iso.date({ error: '--until is a date (YYYY-MM-DD)' }).optional(),
        'until-worse': z.boolean().optional(),
        positionals: issueId,
      })
      .refine((i) => i.until !== undefined || i['until-worse'] === true, {
        message: 'give --until YYYY-MM-DD or --until-worse',
      }),
    async run(ctx, input) {
      const { identity, issues } = ctx.app().use;
      const issue = await issues.snooze(
        await identity.contextForWorkspace(input.workspace),
        input.positionals[0] as string,
        {
          ...(input.until ? { until: input.until } : {}),
          ...(input['until-worse'] ? { untilWorse: true } : {}),
        },
      );
      return { json: { issue }, text: issueLine(issue) };
    },
  }),
];

export const scheduleCommands: CommandModule = [
  command({
    path: ['show'],
    summary: "shows each account's sync schedule: interval, next sync, nightly full sync, backoff",
    options: { workspace: { type: 'string' } },
    input: z.object({ workspace, positionals: cli.noPositionals }),
    async run(ctx, input) {
      const { identity, watch } = ctx.app().use;
      const schedules = await watch.schedules(await identity.contextForWorkspace(input.workspace));
      return { json: { schedules }, text: schedules.map(scheduleLine).join('\n') || '(no accounts)' };
    },
  }),
  command({
    path: ['set'],
    summary:
      'sets the sync interval of the workspace (or one --account): --every MINUTES (15-1440) or --default',
    options: {
      workspace: { type: 'string' },
      account: { type: 'string' },
      every: { type: 'string' },
      default: { type: 'boolean' },
    },
    input: z
      .object({
        workspace,
        account: z.string().optional(),
        every: z.coerce.number({ error: '--every is a number of minutes' }).int().optional(),
        default: z.boolean().optional(),
        positionals: cli.noPositionals,
      })
      .refine((i) => (i.every !== undefined) !== (i.default === true), {
        message: 'give --every MINUTES or --default',
      }),
    async run(ctx, input) {
      const { identity, watch } = ctx.app().use;
      const schedules = await watch.setInterval(await identity.contextForWorkspace(input.workspace), {
        ...(input.account ? { accountId: input.account } : {}),
        minutes: input.default ? null : (input.every as number),
      });
      return { json: { schedules }, text: schedules.map(scheduleLine).join('\n') };
    },
  }),
];
