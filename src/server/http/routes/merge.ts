// POST /app/merge/mergemp3 (docs/reference/http.md): {"items":[item...], "requestId"?} in the wanted order.
// Only each item's `id` is read; everything else comes from the database. The same id may appear
// more than once (a person may want a segment twice). Answers when the merge has finished.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../shared/clock.js';
import { budgetProblem, type BudgetOptions } from '../../jobs/merge-budget.js';
import { MERGE_SUCCESS } from '../../../shared/types.js';
import type { AppConfig } from '../../config.js';
import { AppError, fail } from '../errors.js';
import { QueueClosedError } from '../../jobs/job-errors.js';
import { queuedJobRow, type JobOutcome, type JobQueue, type MergeJobData } from '../../jobs/queue.js';
import { checkMergeOptions, type MergeOptionsData } from '../../jobs/merge-options.js';
import { holdIdleTimeout } from '../server-at-work.js';
import { requireSession } from '../session.js';
import { documented, mergeSchema } from './schemas.js';
import type { Store } from '../../data/store.js';

export interface MergeRouteDeps {
  store: Store;
  jobs: JobQueue;
  config: AppConfig;
  clock: Clock;
}

const MAX_ID_LENGTH = 200;
/** The ordered item ids of a mergemp3 body, or a 400 saying what is wrong. */
export function orderedIds(body: unknown, maxFiles: number): string[] {
  const items = (body as { items?: unknown } | null)?.items;
  if (typeof body !== 'object' || body === null || !Array.isArray(items))
    fail('badRequest', 'The body must be {"items": [...]}');
  if (items.length === 0) fail('noItems');
  if (items.length > maxFiles) fail('badRequest', `At most ${maxFiles} items can be merged at once`);
  return items.map((it, n) => {
    const id = (it as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) {
      fail('badRequest', `Item ${n + 1} has no valid "id"`);
    }
    return id;
  });
}

/** The body's "options" and "requestId", or a 400 naming what is wrong. */
export function mergeChoices(body: unknown): { options: MergeOptionsData; requestId: string | null } {
  const b = body as { options?: unknown; requestId?: unknown };
  const checked = checkMergeOptions(b.options);
  if (!checked.ok) fail('badRequest', checked.message);
  const r = b.requestId;
  // It is echoed in status payloads and matched by the widget: a short name, nothing more.
  if (r !== undefined && r !== null && (typeof r !== 'string' || !/^[A-Za-z0-9_.:-]{1,100}$/.test(r))) {
    fail('badRequest', '"requestId" must be 1 to 100 letters, digits or _ . : -');
  }
  return { options: checked.options, requestId: typeof r === 'string' ? r : null };
}

/**
 * Every use of every item counted, as long as it is kept once trimmed, from the durations measured
 * when it was uploaded, with the gaps between them and less the crossfades: a merge longer in all
 * than MAX_MERGE_HOURS is refused before anything is queued or written (and again when it starts,
 * from the spans it reads then).
 */
export function checkMergeBudget(
  items: ReadonlyArray<{ duration: number; start?: number | null; end?: number | null }>,
  options: BudgetOptions,
  maxHours: number,
): void {
  const problem = budgetProblem(items, options, maxHours);
  if (problem) fail('merge-too-long', problem);
}

/** A job that did not succeed, as the HTTP answer it gets: the status follows the code. */
export function outcomeError(outcome: Exclude<JobOutcome, { state: 'succeeded' }>): AppError {
  if (outcome.state === 'cancelled') return new AppError('cancelled', outcome.message);
  return new AppError(
    outcome.code,
    outcome.message,
    outcome.file === undefined ? {} : { file: outcome.file },
  );
}

/**
 * The answer comes when the merge ends, an hour later perhaps, or after others ahead of it: the
 * idle timeout that cuts silent clients must not cut this one. The whole body is in by now (the
 * request timeout no longer applies). Once answered, the connection is an idle keep-alive like
 * any other again.
 */
export function waitAsLongAsTheMerge(
  socket: Socket | null | undefined,
  response: ServerResponse,
  idleTimeoutMs: number,
): void {
  response.once('finish', holdIdleTimeout(socket, idleTimeoutMs));
}

export async function mergeRoutes(
  app: FastifyInstance,
  { store, jobs, config, clock }: MergeRouteDeps,
): Promise<void> {
  app.post(
    '/app/merge/mergemp3',
    {
      ...documented(mergeSchema),
      config: { rateLimit: { max: config.mergeRateLimit, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const session = requireSession(request);
      const ids = orderedIds(request.body, config.maxFiles);
      waitAsLongAsTheMerge(request.raw.socket, reply.raw, config.idleTimeoutMs);
      const { options, requestId } = mergeChoices(request.body);
      const owned = await store.itemsOwnedBy(session.sid, [...new Set(ids)]);
      const byId = new Map(owned.map((i) => [i.id, i]));
      // Nothing is queued unless every id is this session's.
      if (ids.some((id) => !byId.has(id))) fail('foreignItem');
      const appids = new Set(owned.map((i) => i.appid));
      if (appids.size !== 1) fail('badRequest', 'The items come from more than one widget (appid)');
      checkMergeBudget(
        ids.map((id) => byId.get(id)!),
        options,
        config.maxMergeHours,
      );

      const data: MergeJobData = {
        jobId: randomUUID(),
        sid: session.sid,
        appid: owned[0].appid,
        itemIds: ids,
        options: { ...options },
        requestId,
      };
      // At most a few merges per session queued or running: one session cannot fill the line.
      if (!(await store.addJobIfUnder(queuedJobRow(data, clock.now()), config.maxMergesPerSession)))
        fail(
          'too-many-merges',
          `This session already has ${config.maxMergesPerSession} merges waiting or running; wait for one to end`,
        );
      request.log.info({ job: data.jobId, items: ids.length, requestId }, 'merge queued');
      // The job is not tied to this request: a client that goes away does not stop it.
      let outcome: JobOutcome;
      try {
        outcome = await (await jobs.enqueue(data)).finished;
      } catch (err) {
        if (err instanceof QueueClosedError) fail('unavailable');
        throw err;
      }
      if (outcome.state === 'succeeded')
        return reply.type('application/json').send(JSON.stringify(MERGE_SUCCESS));
      throw outcomeError(outcome);
    },
  );
}
