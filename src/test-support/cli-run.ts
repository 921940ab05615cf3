// Runs a CLI command module's real code on a data directory with --json, capturing what it prints.
import { runCommand, type CommandModule } from '../cli/framework';

export async function runCliJson(dataDir: string, name: string, module: CommandModule, argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCommand(name, module, [...argv, '--data-dir', dataDir, '--json'], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stderr, json: stdout ? (JSON.parse(stdout) as Record<string, unknown>) : {} };
}
