import { z } from 'zod';
import { cli, command, type CommandModule } from '../framework';

const demoPlatformCommands: CommandModule = [
  command({
    path: [],
    summary: 'runs the demo platform (a local Graph API) alone, printing its URL, until Ctrl-C',
    needsDataDir: false,
    options: {
      port: { type: 'string' },
      seed: { type: 'string' },
      today: { type: 'string' },
      'large-account-campaigns': { type: 'string' },
      latency: { type: 'string' },
    },
    input: z.object({
      port: cli.port.default(0),
      seed: z.coerce.number().int().min(0).default(1),
      today: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, '--today is YYYY-MM-DD')
        .optional(),
      'large-account-campaigns': z.coerce.number().int().min(1).max(5_000).optional(),
      /** Milliseconds added to every answer (benches measure syncs under Meta-like latency). */
      latency: z.coerce.number().int().min(0).max(60_000).default(0),
      positionals: cli.noPositionals,
    }),
    async run(ctx, input) {
      const { startDemoPlatform } = await import('../../core/demo-platform/index');
      const platform = await startDemoPlatform({
        port: input.port,
        seed: input.seed,
        ...(input.today ? { today: input.today } : {}),
        ...(input['large-account-campaigns']
          ? { largeAccountCampaigns: input['large-account-campaigns'] }
          : {}),
      });
      if (input.latency > 0) platform.controls.setLatency(input.latency);
      const info = {
        url: platform.url,
        apiVersion: platform.apiVersion,
        seed: input.seed,
        token: 'demo-token',
      };
      // Printed at once (not at exit) so scripts can read the URL while it runs.
      process.stdout.write(
        ctx.json
          ? `${JSON.stringify(info)}\n`
          : `demo platform at ${platform.url} (Graph ${platform.apiVersion}, seed ${input.seed}, token demo-token)\n`,
      );
      const signal = await ctx.interrupted;
      await platform.close();
      ctx.note(`demo platform stopped (${signal})`);
      return { json: null, text: '' };
    },
  }),
];

export default demoPlatformCommands;
