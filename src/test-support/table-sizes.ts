// Which tables grow with the data, and which of them reach millions of rows at agency scale: the
// query-plan test refuses whole reads of the first on every engine, and the scale bench refuses kept
// plans that read the second whole.

/** The growing tables that reach millions of rows at agency scale (500 accounts, two years). */
export const LARGE_TABLES: readonly string[] = [
  'campaigns',
  'ad_sets',
  'ads',
  'insights_campaign_daily',
  'insights_ad_set_daily',
  'insights_ad_daily',
  'learning_stage_snapshots',
  'change_events',
];

/** Tables whose rows grow with accounts, history and use. */
export const GROWING_TABLES: readonly string[] = [
  ...LARGE_TABLES,
  'ad_accounts',
  'insights_account_daily',
  'sync_runs',
  'diagnostics',
  'reports',
  'api_keys',
  'recommendation_feedback',
  'issues',
  'alert_deliveries',
];
