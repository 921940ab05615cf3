// Which branding a report gets: the one given with it, else (on the plans with white-label) the
// client's (its ad account's, migration 0010), else the workspace default (Settings); AdLens's own
// otherwise (null). Resolved when a report is rendered, so a schedule's runs carry the current one.
import type { WhiteLabel } from '../../shared/api/reports';
import { WHITE_LABEL_PLANS } from '../identity/access';
import { whiteLabelDefaults } from '../settings/use-cases';
import type { Sql } from '../store/sql';
import { clientBranding, workspacePlan } from './store';

export async function resolveBranding(
  sql: Sql,
  workspaceId: string,
  accountId: string,
  explicit: WhiteLabel | null,
): Promise<WhiteLabel | null> {
  if (explicit) return explicit;
  const plan = await workspacePlan(sql, workspaceId);
  if (!plan || !(WHITE_LABEL_PLANS as readonly string[]).includes(plan)) return null;
  const client = await clientBranding(sql, workspaceId, accountId);
  if (client) {
    return {
      companyName: client.company_name,
      ...(client.logo ? { logo: client.logo } : {}),
      ...(client.primary_color ? { primaryColor: client.primary_color } : {}),
      ...(client.footer_text ? { footerText: client.footer_text } : {}),
    };
  }
  return await whiteLabelDefaults(sql, workspaceId);
}
