// The desktop app's main process, as far as it can run without Electron (this machine cannot download
// the binary): the local core with the desktop's handler map and the local owner's context (as
// src/main/index.ts), and the team-server choice through the same TeamMode class main uses. The
// renderer is served from out/renderer; the spec gives its page a `window.adlens` whose functions
// POST here, where main would answer over IPC. `show(target)` records the window main would load.
//   node --import tsx e2e/desktop-standin.ts --data-dir DIR
// Prints `READY <url>`. GET /test/window answers the current window target. Control on stdin:
// "menu-use-local" (the Team Server menu's Use Local Store) → "OK menu-use-local".
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { securityHeaders, sendJson } from '../src/core/dashboard/http';
import { serveRenderer } from '../src/core/dashboard/static';
import { createHandlerDispatch, type HandlerContext } from '../src/core/handlers';
import { startHost } from '../src/core/host/start';
import { getWorkspaceOwner } from '../src/core/identity/users';
import { listWorkspaces } from '../src/core/identity/workspaces';
import { TeamMode } from '../src/main/team-mode/controller';
import type { WindowTarget } from '../src/main/team-mode/policy';
import { isHandlerName } from '../src/shared/ipc/names';

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : {};
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' } } });
  const dataDir = values['data-dir'];
  if (!dataDir) throw new Error('--data-dir DIR is required');
  const host = await startHost({
    dataDir,
    kind: 'desktop',
    port: 0,
    seed: 1,
    watch: false,
    provision: 'demo',
    initialSync: 'await',
  });
  const services = host.app;
  const workspace = (await listWorkspaces(host.core.sql))[0];
  const owner = workspace ? await getWorkspaceOwner(host.core.sql, workspace.id) : undefined;
  if (!owner) throw new Error('this data directory has no local owner');
  const ownerContext: HandlerContext = await services.use.identity.contextForUser(owner.id);
  const ctx = (): HandlerContext => ownerContext;
  const dispatch = createHandlerDispatch({ app: services, host: { kind: 'desktop' } });

  let shown: WindowTarget | null = null;
  const teamMode = new TeamMode({
    file: join(dataDir, 'team-server.json'),
    show: (target) => (shown = target),
    warn: (message) => console.error(message),
  });
  shown = teamMode.initialTarget();

  const rendererDir = resolve(import.meta.dirname, '../out/renderer');
  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      securityHeaders(res);
      if (req.method === 'GET' && path === '/test/window') return sendJson(res, 200, { target: shown });
      if (req.method !== 'POST') return serveRenderer(rendererDir, req, res, path);
      const args = await body(req);
      if (path.startsWith('/ipc/')) {
        const name = path.slice('/ipc/'.length);
        if (!isHandlerName(name)) return sendJson(res, 404, { ok: false });
        return sendJson(res, 200, await dispatch(ctx(), name, args));
      }
      if (path === '/ipc-team/get') return sendJson(res, 200, { ok: true, value: teamMode.view() });
      if (path === '/ipc-team/use') return sendJson(res, 200, teamMode.use((args as { url?: unknown }).url));
      if (path === '/ipc-team/useLocal') return sendJson(res, 200, teamMode.useLocal());
      return sendJson(res, 404, { ok: false });
    })().catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) sendJson(res, 500, { ok: false });
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  console.log(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}`);

  const stop = async (): Promise<void> => {
    server.close();
    await host.stop();
    process.exit(0);
  };
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() === 'menu-use-local') {
      teamMode.useLocal();
      console.log('OK menu-use-local');
    } else if (line.trim() === 'stop') void stop();
  });
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
