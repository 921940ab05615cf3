// A runnable example:
//   ADLENS_URL=http://127.0.0.1:4417 ADLENS_KEY=service_test_… node --import tsx src/client/example.ts
// Lists accounts and campaigns, runs a diagnostic on
// the biggest spender and prints its recommendations, then a 7-day insights summary.
import { AdLensClient, ApiError } from './index';

async function main(): Promise<void> {
  const baseUrl = process.env.ADLENS_URL ?? 'http://127.0.0.1:4417';
  const apiKey = process.env.ADLENS_KEY;
  if (!apiKey)
    throw new Error('set ADLENS_KEY to an API key (npm run cli -- key create --workspace WS --mode test)');
  const client = new AdLensClient({ baseUrl, apiKey });

  const accounts = await client.listAccounts();
  console.log(`${accounts.pagination.total} account(s)`);
  const account = accounts.data[0];
  if (!account) return;
  console.log(`${account.name} (${account.currency}): ${account.totalSpendLast30d} spent in 30 days`);

  const campaigns = await client.listCampaigns({ account_id: account.id, sort: '-spend', page_size: 5 });
  for (const c of campaigns.data) {
    console.log(
      `  ${c.name}: spend ${c.insights.spend}, cpa ${c.insights.cpa ?? '-'}, roas ${c.insights.roas ?? '-'}`,
    );
  }
  const top = campaigns.data[0];
  if (top) {
    try {
      const { data: created } = await client.createDiagnostic({
        account_id: account.id,
        campaign_id: top.id,
      });
      const diagnostic = await client.pollDiagnostic(created.id);
      console.log(`diagnostic ${diagnostic.id}: ${diagnostic.riskLevel} — ${diagnostic.summary}`);
      for (const r of diagnostic.recommendations) console.log(`  ${r.priority}. ${r.action}`);
    } catch (error) {
      // 409 diagnostic_in_progress and 422 campaign_not_synced are answers, not failures.
      if (error instanceof ApiError) console.log(`diagnostic not started: ${error.type}: ${error.message}`);
      else throw error;
    }
  }
  const summary = await client.insightsSummary({ account_id: account.id });
  const { totals, trends } = summary.data;
  console.log(
    `last 7 days: spend ${totals.spend} (${trends.spendChange ?? 'n/a'}%), cpa ${totals.cpa ?? '-'}, roas ${totals.roas ?? '-'}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
