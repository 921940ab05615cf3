import { sql as initial } from './0001_initial';
import { sql as userAccess } from './0002_user_access';
import { sql as resultsAndLinkClicks } from './0003_results_and_link_clicks';
import { sql as watch } from './0004_watch';
import { sql as changeHistoryAndDeliveryBlockers } from './0005_change_history_and_delivery_blockers';
import { sql as tokenExpiry } from './0006_token_expiry';
import { sql as alerts } from './0007_alerts';
import { sql as goals } from './0008_goals';
import { sql as savedViews } from './0009_saved_views';
import { sql as portfolio } from './0010_portfolio';
import { sql as clientReports } from './0011_client_reports';
import { sql as detectorsStructure } from './0012_detectors_structure_and_meta_recommendations';
import { sql as agencyScale } from './0013_agency_scale';
import { sql as interruptedRuns } from './0014_interrupted_runs';
import { sql as accountRevisions } from './0015_account_revisions';
import { sql as historyRetention } from './0016_history_retention';
import { sql as latestRunIndex } from './0017_latest_run_index';
import { sql as latestRunPointer } from './0018_latest_run_pointer';
import { sql as issuesByAccount } from './0019_issues_by_account';
import { sql as lineRevision } from './0020_line_revision';
import { sql as issueListOrder } from './0021_issue_list_order';
import { sql as issueCounts } from './0022_issue_counts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

// Append only. A migration, once landed, is never edited: write a new one.
export const migrations: readonly Migration[] = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'user_access', sql: userAccess },
  { version: 3, name: 'results_and_link_clicks', sql: resultsAndLinkClicks },
  { version: 4, name: 'watch', sql: watch },
  { version: 5, name: 'change_history_and_delivery_blockers', sql: changeHistoryAndDeliveryBlockers },
  { version: 6, name: 'token_expiry', sql: tokenExpiry },
  { version: 7, name: 'alerts', sql: alerts },
  { version: 8, name: 'goals', sql: goals },
  { version: 9, name: 'saved_views', sql: savedViews },
  { version: 10, name: 'portfolio', sql: portfolio },
  { version: 11, name: 'client_reports', sql: clientReports },
  { version: 12, name: 'detectors_structure_and_meta_recommendations', sql: detectorsStructure },
  { version: 13, name: 'agency_scale', sql: agencyScale },
  { version: 14, name: 'interrupted_runs', sql: interruptedRuns },
  { version: 15, name: 'account_revisions', sql: accountRevisions },
  { version: 16, name: 'history_retention', sql: historyRetention },
  { version: 17, name: 'latest_run_index', sql: latestRunIndex },
  { version: 18, name: 'latest_run_pointer', sql: latestRunPointer },
  { version: 19, name: 'issues_by_account', sql: issuesByAccount },
  { version: 20, name: 'line_revision', sql: lineRevision },
  { version: 21, name: 'issue_list_order', sql: issueListOrder },
  { version: 22, name: 'issue_counts', sql: issueCounts },
];
