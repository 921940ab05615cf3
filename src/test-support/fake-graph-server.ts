import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A scripted answer of the throwaway Graph server used by connector tests. */
export interface FakeAnswer {
  status?: number;
  body?: unknown;
  /** Raw text instead of JSON (for malformed answers). */
  text?: string;
  headers?: Record<string, string>;
}

export interface FakeRequest {
  path: string;
  query: URLSearchParams;
}

/**
 * A tiny node:http server on 127.0.0.1 that answers Graph-shaped JSON from a handler: enough to test
 * the connector's paging, retry and error mapping without the demo platform.
 */
export async function startFakeGraph(
  handler: (request: FakeRequest, index: number) => FakeAnswer | Promise<FakeAnswer>,
): Promise<{ url: string; requests: FakeRequest[]; close(): Promise<void> }> {
  const requests: FakeRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const request = { path: url.pathname, query: url.searchParams };
    requests.push(request);
    Promise.resolve(handler(request, requests.length - 1))
      .then((answer) => {
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
        res.end(answer.text ?? JSON.stringify(answer.body ?? {}));
      })
      .catch((error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const graphError = (code: number, message: string, extra: Record<string, unknown> = {}) => ({
  error: { message, type: 'OAuthException', code, fbtrace_id: 'AbCdEf', ...extra },
});
