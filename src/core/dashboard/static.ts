// Serves the built renderer (out/renderer): hashed assets cached for good, index.html never cached.
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { sendError } from './http';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
};

export function serveRenderer(
  rendererDir: string,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): void {
  const root = resolve(rendererDir);
  let relative: string;
  try {
    relative = path === '/' || path === '/index.html' ? 'index.html' : decodeURIComponent(path.slice(1));
  } catch {
    return sendError(res, 404, 'not_found', 'No such page.');
  }
  const file = normalize(join(root, relative));
  if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
    if (!existsSync(join(root, 'index.html'))) {
      return sendError(res, 503, 'api_error', 'The dashboard is not built: run `npm run build` first.');
    }
    return sendError(res, 404, 'not_found', 'No such page.');
  }
  const isIndex = relative === 'index.html';
  res.writeHead(200, {
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Length': statSync(file).size,
    'Cache-Control': isIndex ? 'no-store' : 'public, max-age=31536000, immutable',
  });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file).pipe(res);
}
