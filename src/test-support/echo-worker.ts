// A job worker for the JobThread tests: answers each request with itself after `delayMs`.
import { serveJobs } from '../core/jobs/worker-side';

serveJobs<{ value: string; delayMs: number }, string, never, string>({
  run: async ({ value, delayMs }) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return value;
  },
  encodeError: (error) => String(error),
});
