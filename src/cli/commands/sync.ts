import { z } from 'zod';
import type { SyncOutcome } from '../../core/sync/service';
import { cli, command, type CommandModule } from '../framework';
import { showSyncProgress } from '../progress';

const syncCommands: CommandModule = [
  command({
    path: [],
    summary: "syncs a workspace's accounts (or one) from the platform, showing progress",
    options: { workspace: { type: 'string' }, account: { type: 'string' }, full: { type: 'boolean' } },
    input: z.object({
      workspace: z.string({ error: '--workspace WS is required' }),
      account: z.string().optional(),
      full: z.boolean().optional(),
      positionals: cli.noPositionals,
    }),
    async run(ctx, input) {
      const app = ctx.app();
      const rc = await app.use.identity.contextForWorkspace(input.workspace);
      const accounts = await app.use.accounts.all(rc);
      const stop = showSyncProgress(
        app.core.events,
        new Map(accounts.map((a) => [a.id, a.platformAccountId])),
      );
      // Ctrl-C stops at the next page boundary; what was committed stays and the next sync resumes.
      void ctx.interrupted.then(() => app.sync.stop());
      let outcomes: SyncOutcome[];
      try {
        outcomes = await app.use.accounts.syncAndWait(rc, {
          accountId: input.account,
          kind: input.full ? 'full' : undefined,
        });
      } finally {
        stop();
      }
      const failed = outcomes.filter((o) => o.status !== 'completed');
      const text = outcomes
        .map((o) =>
          o.status === 'completed'
            ? `${o.accountId}\t${o.kind}\tcompleted\t${o.stats?.campaigns ?? 0} campaigns, ${(o.stats?.insightRows.ad ?? 0) + (o.stats?.insightRows.adSet ?? 0) + (o.stats?.insightRows.campaign ?? 0)} insight rows`
            : `${o.accountId}\t${o.kind}\t${o.status}\t${o.error?.message ?? ''}`,
        )
        .join('\n');
      return {
        json: { syncs: outcomes },
        text: text || '(no active accounts to sync)',
        exitCode: failed.length > 0 ? 1 : 0,
      };
    },
  }),
];

export default syncCommands;
