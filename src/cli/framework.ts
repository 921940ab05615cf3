import { parseArgs, type ParseArgsConfig } from 'node:util';
import { z } from 'zod';
import { fixedClock, type Clock } from '../core/clock';
import { createCore, type Core } from '../core/core';
import { AppError, isAppError } from '../core/errors';
import { createApp, type App } from '../core/app';
import { demoLatencyFromEnv, lazyEmbeddedDemo } from '../core/host/embedded-demo';
import type { SyncService } from '../core/sync/service';
import { openTeamCore } from '../core/team-core';

type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** One CLI command, e.g. `workspace create`. A module (src/cli/commands/*.ts) exports a list of them. */
export interface CliCommand<S extends z.ZodType = z.ZodType> {
  /** The words after the module name, e.g. ['create'] for `workspace create`; [] for `sync`. */
  path: string[];
  summary: string;
  /** Options besides the global --data-dir, --database-url, --json and --help (parseArgs format). */
  options: OptionSpec;
  /** Validates the parsed values and positionals ({ ...values, positionals }). */
  input: S;
  /** false for commands that do not touch a store (demo-platform, store copy). Default true. */
  needsDataDir?: boolean;
  run(ctx: CliContext, input: z.output<S>): Promise<CliResult>;
}

export type CommandModule = readonly CliCommand[];

/** Helps modules declare commands with inferred input types. */
export function command<S extends z.ZodType>(spec: CliCommand<S>): CliCommand {
  return spec as unknown as CliCommand;
}

/** What a command prints: one JSON object with --json, else the text lines. */
export interface CliResult {
  /** null when the command already printed (long-running commands print as they start). */
  json: Record<string, unknown> | null;
  text: string;
  /** Non-zero when the command ran but its outcome is a failure (e.g. a failed sync). */
  exitCode?: number;
}

export interface CliContext {
  /** The data directory ('' on a team server's database). */
  readonly dataDir: string;
  readonly json: boolean;
  /**
   * The store's core: the data directory's, opened on first use (never takes the server lock), or the
   * team server's database (--database-url), opened before the command runs.
   */
  core(): Core;
  /** A SyncService over that core; demo accounts get an in-process demo platform when needed. */
  sync(): SyncService;
  /** The App over that core (a short-lived host: no background work), opened on first use. */
  app(): App;
  /** Progress and notes go to stderr so stdout stays one JSON object. */
  note(line: string): void;
  /** Resolves when the user presses Ctrl-C (for long-running commands). */
  interrupted: Promise<NodeJS.Signals>;
}

const globalOptions: OptionSpec = {
  'data-dir': { type: 'string' },
  'database-url': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

export class UsageError extends AppError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

/**
 * ADLENS_NOW=<ISO instant> pins "now" for a command (reproducible demos and scripts, and the tests
 * that compare the CLI with a server running on a pinned clock).
 */
function pinnedClock(): { clock?: Clock } {
  const pinned = process.env.ADLENS_NOW;
  if (!pinned) return {};
  if (Number.isNaN(Date.parse(pinned)))
    throw new UsageError(`ADLENS_NOW must be an ISO 8601 instant, not "${pinned}"`);
  return { clock: fixedClock(pinned) };
}

/** Finds the command, parses and validates its arguments, runs it, prints, and returns the exit code. */
export async function runCommand(
  moduleName: string,
  module: CommandModule,
  argv: string[],
  io: { stdout: (text: string) => void; stderr: (text: string) => void },
): Promise<number> {
  const json = argv.includes('--json');
  const sorted = [...module].sort((a, b) => b.path.length - a.path.length);
  const spec = sorted.find((c) => c.path.every((word, i) => argv[i] === word));
  let core: Core | undefined;
  let app: App | undefined;
  let demo: ReturnType<typeof lazyEmbeddedDemo> | undefined;
  let onSignal: ((signal: NodeJS.Signals) => void) | undefined;
  try {
    if (!spec) {
      throw new UsageError(
        `unknown command "${[moduleName, ...argv.filter((a) => !a.startsWith('-')).slice(0, 1)].join(' ')}"; try: ${module
          .map((c) => [moduleName, ...c.path].join(' '))
          .join(', ')}`,
      );
    }
    const rest = argv.slice(spec.path.length);
    let parsed: { values: Record<string, unknown>; positionals: string[] };
    try {
      parsed = parseArgs({
        args: rest,
        options: { ...globalOptions, ...spec.options },
        allowPositionals: true,
        strict: true,
      });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (parsed.values.help) {
      io.stdout(`${[moduleName, ...spec.path].join(' ')}: ${spec.summary}\n${usage(spec)}\n`);
      return 0;
    }
    const store = storeOf(parsed.values);
    if (spec.needsDataDir !== false && !store)
      throw new UsageError(
        '--data-dir DIR (a solo install) or --database-url URL (a team server) is required',
      );
    const dataDir = store?.dataDir;
    const values = { ...parsed.values };
    delete values['data-dir'];
    delete values['database-url'];
    delete values.json;
    delete values.help;
    const input = spec.input.safeParse({ ...values, positionals: parsed.positionals });
    if (!input.success) {
      throw new UsageError(
        input.error.issues
          .map((issue) =>
            issue.path.length && !issue.message.includes('--')
              ? `--${issue.path.join('.')}: ${issue.message}`
              : issue.message,
          )
          .join('; '),
      );
    }
    const interrupted = new Promise<NodeJS.Signals>((resolve) => {
      onSignal = resolve;
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    // A team server's core opens asynchronously (pool, key check, migrations): before the command.
    // Its jobs run in this process, which waits for the ones it starts and claims no server's job.
    if (spec.needsDataDir !== false && store?.databaseUrl)
      core = await openTeamCore({ databaseUrl: store.databaseUrl, jobsRun: 'here', ...pinnedClock() });
    const ctx: CliContext = {
      dataDir: dataDir ?? '',
      json,
      core: () => (core ??= createCore({ dataDir: dataDir ?? '', ...pinnedClock() })),
      app: () =>
        (app ??= createApp(ctx.core(), {
          sync: {
            demoPlatform: (demo ??= lazyEmbeddedDemo(ctx.core().sql, { latencyMs: demoLatencyFromEnv() }))
              .source,
          },
        })),
      sync: () => ctx.app().sync,
      note: (line) => io.stderr(`${line}\n`),
      interrupted,
    };
    const result = await spec.run(ctx, input.data);
    if (json && result.json !== null) io.stdout(`${JSON.stringify(result.json)}\n`);
    else if (!json && result.text) io.stdout(`${result.text}\n`);
    return result.exitCode ?? 0;
  } catch (error) {
    const value = isAppError(error)
      ? error.toValue()
      : { type: 'api_error' as const, message: error instanceof Error ? error.message : String(error) };
    if (json) io.stdout(`${JSON.stringify({ error: value })}\n`);
    io.stderr(`error: ${value.message}\n`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    if (onSignal) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    if (app) await app.stop();
    else await core?.close();
    await demo?.close();
  }
}

function usage(spec: CliCommand): string {
  return Object.entries(spec.options)
    .map(([name, option]) => `  --${name}${option.type === 'string' ? ' VALUE' : ''}`)
    .concat(['  --data-dir DIR | --database-url postgres://…', '  --json'])
    .join('\n');
}

/**
 * The store a command works on: --data-dir or --database-url (a flag wins over the environment's
 * ADLENS_DATA_DIR / ADLENS_DATABASE_URL; the database URL wins between the two variables).
 */
function storeOf(values: Record<string, unknown>): { dataDir?: string; databaseUrl?: string } | null {
  const dataDir = values['data-dir'] as string | undefined;
  const databaseUrl = values['database-url'] as string | undefined;
  if (dataDir !== undefined && databaseUrl !== undefined)
    throw new UsageError('give either --data-dir or --database-url, not both');
  if (dataDir) return { dataDir };
  if (databaseUrl) return { databaseUrl };
  if (process.env.ADLENS_DATABASE_URL) return { databaseUrl: process.env.ADLENS_DATABASE_URL };
  if (process.env.ADLENS_DATA_DIR) return { dataDir: process.env.ADLENS_DATA_DIR };
  return null;
}

/** Shared zod pieces for command inputs. */
export const cli = {
  noPositionals: z.array(z.string()).max(0, 'unexpected extra arguments'),
  port: z.coerce.number().int().min(0).max(65_535),
};
