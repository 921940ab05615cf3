// An issue row as the issues store keeps it, for tests that seed issues: an open HIGH cost-per-result
// issue of campaign cmp_1 in account acc_1 of workspace ws_a, opened by diag_1, with what a test changes.
import type { IssueRow } from '../core/issues/store';

export const ISSUE_AT = '2026-03-10T12:00:00.000Z';

export function seededIssue(id: string, over: Partial<IssueRow> = {}): IssueRow {
  return {
    id,
    workspace_id: 'ws_a',
    account_id: 'acc_1',
    campaign_id: 'cmp_1',
    type: 'CPA_DEGRADATION',
    entity_id: 'cmp_1',
    entity_name: 'Alpha',
    state: 'open',
    severity: 'HIGH',
    peak_severity: 'HIGH',
    title: 'Cost per result up',
    description: 'the last 7 days',
    evidence: '{"cpaChange":0.6}',
    diagnostic_id: 'diag_1',
    opened_at: ISSUE_AT,
    updated_at: ISSUE_AT,
    resolved_at: null,
    snoozed_until: null,
    snooze_until_worse: 0,
    acknowledged_by: null,
    history: '[]',
    ...over,
  };
}
