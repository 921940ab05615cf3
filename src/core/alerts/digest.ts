// A user's morning digest: what changed across the accounts they see since the last one — issues
// opened, worsened and resolved, syncs that failed — in one short text; an empty day says so.
import type { Sql } from '../store/sql';
import { visibleAccounts } from '../identity/access';
import { getWorkspace } from '../identity/workspaces';
import { issuesChangedSince, syncsFailedSince, userEmail, type DigestRow } from './store';

export interface ComposedDigest {
  title: string;
  text: string;
  detail: Record<string, unknown>;
}

export async function composeDigest(
  sql: Sql,
  digest: DigestRow,
  today: string,
  now: Date,
): Promise<ComposedDigest | null> {
  const workspace = await getWorkspace(sql, digest.workspace_id);
  if (!workspace) return null;
  const since = digest.last_sent_at ?? new Date(now.getTime() - 24 * 60 * 60_000).toISOString();
  const accounts = (
    await visibleAccounts(sql, {
      workspaceId: workspace.id,
      userId: digest.user_id,
      plan: workspace.plan,
      keyId: null,
      mode: 'all',
    })
  ).map((a) => a.id);
  const lines: string[] = [];
  const counts = { opened: 0, worsened: 0, resolved: 0, syncsFailed: 0 };
  for (const issue of await issuesChangedSince(sql, accounts, since)) {
    const history = JSON.parse(issue.history) as { at: string; change: string }[];
    for (const entry of history.filter((h) => h.at > since)) {
      const kind = entry.change === 'reopened' ? 'opened' : entry.change;
      if (kind !== 'opened' && kind !== 'worsened' && kind !== 'resolved') continue;
      counts[kind] += 1;
      const where = `${issue.account_name}${issue.campaign_name ? ` / ${issue.campaign_name}` : ''}`;
      lines.push(`${kind.padEnd(8)} ${issue.severity.padEnd(8)} ${where}: ${issue.title}`);
    }
  }
  for (const failed of await syncsFailedSince(sql, accounts, since)) {
    counts.syncsFailed += 1;
    lines.push(`sync failed ${failed.account_name} at ${failed.finished_at}: ${failed.error ?? ''}`);
  }
  const email = (await userEmail(sql, digest.user_id)) ?? digest.user_id;
  return {
    title: `Morning digest for ${email}, ${today}`,
    text: lines.length === 0 ? 'Nothing changed since the last digest.' : lines.join('\n'),
    detail: { userId: digest.user_id, email, day: today, since, counts, lines },
  };
}
