import { z } from 'zod';
import { requireWorkspace } from '../../core/identity/workspaces';
import { listAdAccounts, resolveAdAccount } from '../../core/sync/accounts';
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
      const core = ctx.core();
      requireWorkspace(core.db, input.workspace);
      const accounts = input.account
        ? [resolveAdAccount(core.db, input.workspace, input.account)]
        : listAdAccounts(core.db, input.workspace).filter((a) => a.connectionStatus === 'active');
      const sync = ctx.sync();
      const stop = showSyncProgress(core.events, new Map(accounts.map((a) => [a.id, a.platformAccountId])));
      const outcomes: SyncOutcome[] = [];
      // Ctrl-C stops at the next page boundary; what was committed stays and the next sync resumes.
      void ctx.interrupted.then(() => sync.stop());
      try {
        for (const account of accounts) {
          outcomes.push(await sync.syncAccount(account.id, input.full ? { kind: 'full' } : {}));
        }
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
