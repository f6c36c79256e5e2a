// The Broadcaster port: how anything in the server (the job events, above all) tells a channel's
// browsers something, without knowing the socket server. The socket.io server implements it
// today; a worker process without ports will publish through another implementation (Redis).

export interface Broadcaster {
  /** Send `event` with `payload` to the channel's members. */
  broadcast(channel: string, event: string, payload: Record<string, unknown>): void;
}
