// What a person reads when the server cannot start: one line saying what is wrong and what to do,
// never a stack. A port that cannot be listened on is named by the variable that set it.
import type { AppConfig } from './config.js';

interface ListenFailure {
  code?: string;
  port?: number;
  address?: string;
}

/** The reason part of "audio-merge: cannot start: ...". */
export function startErrorReason(
  err: unknown,
  config: Pick<AppConfig, 'port' | 'socketPort' | 'host'>,
): string {
  const e = err as Error & ListenFailure;
  if ((e.code === 'EADDRINUSE' || e.code === 'EACCES') && e.port !== undefined) {
    const variable = e.port === config.socketPort ? 'SOCKET_PORT' : 'PORT';
    const where = `port ${e.port} on ${e.address ?? config.host}`;
    return e.code === 'EADDRINUSE'
      ? `${where} (${variable}) is already in use; stop what uses it or set ${variable} to a free port`
      : `${where} (${variable}) may not be opened by this user; set ${variable} to a port above 1023`;
  }
  return e instanceof Error ? e.message : String(err);
}
