// The session's merge from the outside (docs/reference/http.md): GET status (the latest merge, as a
// reloaded page needs it) and POST cancel {"requestId"} (or {}: the one waiting or running).
import type { FastifyInstance } from 'fastify';
import type { MergeStatusAnswer } from '../../../shared/types.js';
import type { JobRow, Store } from '../../data/store.js';
import { statusAnswer, statusOfJob, type LiveDetail } from '../../jobs/job-status.js';
import type { JobQueue } from '../../jobs/queue.js';
import { fail } from '../errors.js';
import { requireSession } from '../session.js';
import { cancelSchema, documented, mergeStatusSchema } from './schemas.js';

export interface MergeControlDeps {
  store: Store;
  jobs: JobQueue;
  /** The running merges' stages, which their rows do not keep. */
  liveDetail?: LiveDetail;
}

/** The session's merge that is waiting or running: the one named, else the newest. */
export async function activeJob(
  store: Store,
  sid: string,
  requestId: string | null,
): Promise<JobRow | undefined> {
  const active = [...(await store.jobsWithStatus('queued')), ...(await store.jobsWithStatus('running'))]
    .filter((j) => j.sid === sid && (requestId === null || j.requestId === requestId))
    .sort((a, b) => b.createdAt - a.createdAt);
  return active[0];
}

export async function mergeControlRoutes(
  app: FastifyInstance,
  { store, jobs, liveDetail = () => undefined }: MergeControlDeps,
): Promise<void> {
  app.get(
    '/app/merge/status',
    documented(mergeStatusSchema),
    async (request, reply): Promise<MergeStatusAnswer> => {
      const session = requireSession(request);
      void reply.header('cache-control', 'no-store');
      const job = await store.latestJob(session.sid);
      return job ? statusAnswer(statusOfJob(job, liveDetail(job.id))) : { state: 'none' };
    },
  );

  app.post<{ Body: { requestId?: string | null } }>(
    '/app/merge/cancel',
    // The body schema validates; answers pass through unfiltered.
    { schema: cancelSchema, serializerCompiler: documented(cancelSchema).serializerCompiler },
    async (request) => {
      const session = requireSession(request);
      const job = await activeJob(store, session.sid, request.body?.requestId ?? null);
      if (!job) fail('noMerge');
      // Resolves once the merge has stopped: its processes are gone and its files removed.
      if (!(await jobs.cancel(job.id))) fail('noMerge');
      request.log.info({ job: job.id }, 'merge cancelled');
      return { ok: true };
    },
  );
}
