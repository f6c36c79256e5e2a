// POST /app/merge/mergemp3 (CONTRACT section 3).
// STUB: the jobs/realtime engineer replaces the body; the signature is fixed.
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.js';
import type { JobRunner } from '../jobs/job-runner.js';
import type { Store } from '../store.js';

export interface MergeRouteDeps {
  store: Store;
  jobs: JobRunner;
  config: AppConfig;
}

export async function mergeRoutes(_app: FastifyInstance, _deps: MergeRouteDeps): Promise<void> {}
