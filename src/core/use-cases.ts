// The application layer: every domain's use cases, joined into one object that each transport calls
// (`app.use.<domain>.<useCase>(ctx, input)`). Their types are inferred from the implementations, so
// transports and the script client never re-declare the service surface.
import { accountUseCases } from './accounts/use-cases';
import { alertUseCases } from './alerts/use-cases';
import type { AppServices } from './app-services';
import { campaignUseCases } from './campaigns/use-cases';
import { diagnosticUseCases } from './diagnostics/use-cases';
import { goalUseCases } from './goals/use-cases';
import { identityUseCases } from './identity/use-cases';
import { insightUseCases } from './insights/use-cases';
import { issueUseCases } from './issues/use-cases';
import { reportUseCases } from './reports/use-cases';
import { savedViewUseCases } from './saved-views/use-cases';
import { settingsUseCases } from './settings/use-cases';
import { watchUseCases } from './watch/use-cases';

export function createUseCases(services: AppServices) {
  return {
    accounts: accountUseCases(services),
    alerts: alertUseCases(services),
    campaigns: campaignUseCases(services),
    diagnostics: diagnosticUseCases(services),
    goals: goalUseCases(services),
    identity: identityUseCases(services),
    insights: insightUseCases(services),
    issues: issueUseCases(services),
    reports: reportUseCases(services),
    settings: settingsUseCases(services),
    views: savedViewUseCases(services),
    watch: watchUseCases(services),
  };
}

export type UseCases = ReturnType<typeof createUseCases>;
