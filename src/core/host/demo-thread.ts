// The host's embedded demo platform, started on a worker thread of its own. Its controls (expire a
// token, throttle, add latency) are the simulator's, called across the thread and awaited.
import type { DemoControls, StartDemoPlatformOptions } from '../demo-platform/index';
import { spawnWorker } from '../jobs/thread';

export type DemoControlCall = {
  [K in keyof DemoControls]: { type: 'call'; callId: number; name: K; args: Parameters<DemoControls[K]> };
}[keyof DemoControls];

export type FromDemoWorker =
  | { type: 'ready'; url: string; apiVersion: string }
  | { type: 'result'; callId: number; ok: true; value: unknown }
  | { type: 'result'; callId: number; ok: false; message: string };

/** The simulator's controls, each answered once the platform's thread has applied it. */
export type RemoteDemoControls = {
  [K in keyof DemoControls]: (...args: Parameters<DemoControls[K]>) => Promise<ReturnType<DemoControls[K]>>;
};

export interface HostedDemoPlatform {
  url: string;
  apiVersion: string;
  controls: RemoteDemoControls;
  close(): Promise<void>;
}

// Every control of the simulator, checked against its interface so a new one is not forgotten here.
const CONTROLS: Record<keyof DemoControls, true> = {
  setLatency: true,
  throttleNext: true,
  failNext: true,
  expireToken: true,
  setTokenExpiry: true,
  setAsyncPolls: true,
  failNextJobs: true,
  reset: true,
  requestCount: true,
  requestLog: true,
  setStatus: true,
  attributeLate: true,
  disapproveAd: true,
  reachSpendCap: true,
};
const CONTROL_NAMES = Object.keys(CONTROLS) as (keyof DemoControls)[];

export function startDemoPlatformThread(opts: StartDemoPlatformOptions): Promise<HostedDemoPlatform> {
  const worker = spawnWorker(new URL('./demo-worker', import.meta.url), opts);
  const calls = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextCallId = 1;
  let closed: Promise<void> | null = null;
  return new Promise<HostedDemoPlatform>((resolve, reject) => {
    worker.on('message', (message: FromDemoWorker) => {
      if (message.type === 'ready') {
        const controls = Object.fromEntries(
          CONTROL_NAMES.map((name) => [
            name,
            (...args: unknown[]) =>
              new Promise((resolveCall, rejectCall) => {
                const callId = nextCallId++;
                calls.set(callId, { resolve: resolveCall, reject: rejectCall });
                worker.postMessage({ type: 'call', callId, name, args });
              }),
          ]),
        ) as RemoteDemoControls;
        resolve({
          url: message.url,
          apiVersion: message.apiVersion,
          controls,
          close: () =>
            (closed ??= new Promise<void>((done) => {
              worker.once('exit', () => done());
              worker.postMessage({ type: 'close' });
            })),
        });
        return;
      }
      const call = calls.get(message.callId);
      if (!call) return;
      calls.delete(message.callId);
      if (message.ok) call.resolve(message.value);
      else call.reject(new Error(message.message));
    });
    worker.on('error', (error) => {
      reject(error);
      for (const call of calls.values()) call.reject(error);
      calls.clear();
    });
    worker.on('exit', (code) => {
      reject(new Error(`the demo platform's thread exited (code ${code}) before it was ready`));
      for (const call of calls.values())
        call.reject(new Error(`the demo platform's thread exited (code ${code})`));
      calls.clear();
    });
  });
}
