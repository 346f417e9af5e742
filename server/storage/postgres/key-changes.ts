import pg from 'pg';

/** How long the listener waits before connecting again after its connection dropped. */
const reconnectMs = 1000;

/**
 * The version of the API keys as one instance knows it. A connection of its own (not a pooled
 * one: LISTEN belongs to a session) listens on `api_keys_changed`, which the trigger of
 * migration 008 notifies when a change of a key commits, in any instance; each notification
 * moves the version, and so does a change this instance commits itself (`bump`, called right
 * after its COMMIT, before the notification comes back). While the connection is down the
 * version is unknown (null) and nothing cached is trusted; on reconnecting it moves, since
 * notifications may have been missed meanwhile.
 *
 * @example
 * const changes = await listenForKeyChanges('postgres://payments@db/payments');
 * changes.version(); // 1
 */
export class KeyChangesListener {
  #version = 0;
  #listening = false;
  #closed = false;
  #client: pg.Client | undefined;
  #retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly applicationName: string,
  ) {}

  version(): number | null {
    return this.#listening ? this.#version : null;
  }

  /** A change of a key committed here: what this instance cached before is stale. */
  bump(): void {
    this.#version += 1;
  }

  /** Connects and listens; rejects when the first connection fails (later ones are retried). */
  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: this.applicationName });
    this.#client = client;
    const lost = () => {
      if (this.#client !== client) return;
      this.#listening = false;
      this.#client = undefined;
      client.end().catch(() => undefined);
      this.#scheduleReconnect();
    };
    // Without an error listener, a dropped connection would end the process.
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', () => this.bump());
    await client.connect();
    await client.query('LISTEN api_keys_changed');
    this.bump(); // notifications may have been missed while nobody listened
    this.#listening = true;
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#retry) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      if (this.#closed) return;
      this.start().catch(() => {
        const client = this.#client;
        this.#client = undefined;
        client?.end().catch(() => undefined);
        this.#scheduleReconnect();
      });
    }, reconnectMs);
    this.#retry.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listening = false;
    if (this.#retry) clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }
}
