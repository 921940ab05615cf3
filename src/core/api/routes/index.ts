import type { Route } from '../route';
import { accountRoutes } from './accounts';
import { campaignRoutes } from './campaigns';
import { diagnosticRoutes } from './diagnostics';
import { eventRoutes } from './events';
import { goalRoutes } from './goals';
import { insightsRoutes } from './insights';
import { issueRoutes } from './issues';
import { portfolioRoutes } from './portfolio';
import { reportRoutes } from './reports';

/** Every /v1 route, in the order the OpenAPI document lists them. */
export function apiRoutes(): Route[] {
  return [
    ...accountRoutes,
    ...campaignRoutes,
    ...diagnosticRoutes,
    ...reportRoutes,
    ...insightsRoutes,
    ...issueRoutes,
    ...portfolioRoutes,
    ...goalRoutes,
    ...eventRoutes,
  ] as Route[];
}
