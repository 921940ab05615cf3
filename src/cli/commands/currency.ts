// `currency show|set|clear`: the agency's reporting currency and its exchange rates, in which the
// whole-workspace insights summary is also totalled when accounts use several currencies.
// Translation only: the check and the storage are the settings use cases'.
import { z } from 'zod';
import type { ReportingCurrency } from '../../shared/api/reporting-currency';
import { cli, command, type CommandModule } from '../framework';

const workspace = z.string({ error: '--workspace WS is required' }).min(1);

const text = (reporting: ReportingCurrency | null): string =>
  reporting
    ? [
        `reporting currency ${reporting.currency}`,
        ...Object.entries(reporting.rates)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([code, rate]) => `  1 ${code} = ${rate} ${reporting.currency}`),
      ].join('\n')
    : 'no reporting currency: a workspace summary across currencies shows one total per currency';

/** `--rate EUR=1.0842` (repeatable) → { EUR: '1.0842' }; the values are checked by the use case. */
const Rates = z
  .array(z.string().regex(/^[^=]+=[^=]+$/, 'a rate is CODE=RATE, such as --rate EUR=1.0842'))
  .default([])
  .transform((pairs) => Object.fromEntries(pairs.map((pair) => pair.split('=') as [string, string])));

export const currencyCommands: CommandModule = [
  command({
    path: ['show'],
    summary: "shows the workspace's reporting currency and exchange rates",
    options: { workspace: { type: 'string' } },
    input: z.object({ workspace, positionals: cli.noPositionals }),
    async run(ctx, input) {
      const { identity, settings } = ctx.app().use;
      const reporting = await settings.reportingCurrency(await identity.contextForWorkspace(input.workspace));
      return { json: { reportingCurrency: reporting }, text: text(reporting) };
    },
  }),
  command({
    path: ['set'],
    summary:
      'sets the reporting currency: --currency USD --rate EUR=1.0842 --rate JPY=0.0067 (units of it per unit)',
    options: {
      workspace: { type: 'string' },
      currency: { type: 'string' },
      rate: { type: 'string', multiple: true },
    },
    input: z.object({
      workspace,
      currency: z.string({ error: '--currency CODE is required (an ISO 4217 code such as USD)' }),
      rate: Rates,
      positionals: cli.noPositionals,
    }),
    async run(ctx, input) {
      const { identity, settings } = ctx.app().use;
      const reporting = await settings.setReportingCurrency(
        await identity.contextForWorkspace(input.workspace),
        {
          currency: input.currency,
          rates: input.rate,
        },
      );
      return { json: { reportingCurrency: reporting }, text: text(reporting) };
    },
  }),
  command({
    path: ['clear'],
    summary: 'clears the reporting currency (summaries across currencies show one total per currency)',
    options: { workspace: { type: 'string' } },
    input: z.object({ workspace, positionals: cli.noPositionals }),
    async run(ctx, input) {
      const { identity, settings } = ctx.app().use;
      await settings.setReportingCurrency(await identity.contextForWorkspace(input.workspace), null);
      return { json: { reportingCurrency: null }, text: text(null) };
    },
  }),
];

export default currencyCommands;
