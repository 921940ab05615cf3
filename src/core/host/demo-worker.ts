// The embedded demo platform's own thread: generating a large demo account's insights is CPU work that
// would stall the host's thread (the window, in the desktop app) while accounts sync.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { startDemoPlatform, type StartDemoPlatformOptions } from '../demo-platform/index';
import type { DemoControlCall, FromDemoWorker } from './demo-thread';

async function serve(port: MessagePort): Promise<void> {
  const platform = await startDemoPlatform((workerData as { data: StartDemoPlatformOptions }).data);
  const post = (message: FromDemoWorker) => port.postMessage(message);
  port.on('message', (message: DemoControlCall | { type: 'close' }) => {
    if (message.type === 'close') {
      void platform.close().then(() => port.close());
      return;
    }
    try {
      const control = platform.controls[message.name] as (...args: unknown[]) => unknown;
      post({ type: 'result', callId: message.callId, ok: true, value: control(...message.args) });
    } catch (error) {
      post({ type: 'result', callId: message.callId, ok: false, message: (error as Error).message });
    }
  });
  post({ type: 'ready', url: platform.url, apiVersion: platform.apiVersion });
}

if (parentPort) void serve(parentPort);
