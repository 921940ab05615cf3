// `npm run cli -- <command> [subcommand] --data-dir DIR [--json] ...`: the headless admin commands.
// Each command module is loaded only when its name is used, so one module's trouble never breaks another.
import type { CommandModule } from './framework';
import { runCommand } from './framework';

type Loader = () => Promise<{ default: CommandModule }>;

// Register a command module with one line: name → its file in src/cli/commands/.
export const COMMAND_MODULES: Record<string, Loader> = {
  workspace: () => import('./commands/workspace'),
  account: () => import('./commands/account'),
  sync: () => import('./commands/sync'),
  'demo-platform': () => import('./commands/demo-platform'),
  key: () => import('./commands/keys'),
  user: () => import('./commands/users'),
  report: () => import('./commands/reports'),
  profile: () => import('./commands/diagnostics').then((m) => ({ default: m.profileCommands })),
  feedback: () => import('./commands/diagnostics').then((m) => ({ default: m.feedbackCommands })),
  diagnose: () => import('./commands/diagnostics').then((m) => ({ default: m.diagnoseCommands })),
  issues: () => import('./commands/watch').then((m) => ({ default: m.issueCommands })),
  schedule: () => import('./commands/watch').then((m) => ({ default: m.scheduleCommands })),
  alerts: () => import('./commands/alerts'),
  goals: () => import('./commands/goals'),
  currency: () => import('./commands/currency'),
  store: () => import('./commands/store'),
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const loader = name ? COMMAND_MODULES[name] : undefined;
  if (!name || !loader || name === '--help' || name === 'help') {
    const known = Object.keys(COMMAND_MODULES).sort().join(', ');
    process.stderr.write(
      `${name && name !== '--help' && name !== 'help' ? `error: unknown command "${name}". ` : ''}usage: npm run cli -- <command> --data-dir DIR [--json]\ncommands: ${known}\n`,
    );
    return name && name !== '--help' && name !== 'help' ? 2 : 0;
  }
  const module = (await loader()).default;
  return runCommand(name, module, rest, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('src/cli/index.ts')) {
  main(process.argv.slice(2)).then(
    // Exit explicitly: idle keep-alive sockets to the platform must not hold the command open.
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
