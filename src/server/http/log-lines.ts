// Fastify's own log lines, but for one: a client that stops reading a file it asked for (an audio
// element that has preloaded enough, a seek, a closed tab) is how browsers play media, not a
// fault. Its request gets the usual completion line, marked as ended by the client, instead of
// "stream closed prematurely". Other stream errors are logged as Fastify does.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

export class AppLogController extends LogController {
  override streamError(
    error: Error & { code?: string },
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE')
      return super.streamError(error, request, reply, metadata);
    if (this.isLogDisabled(request)) return;
    reply.log.info({ res: reply, responseTime: reply.elapsedTime, endedByClient: true }, 'request completed');
  }
}
