import type pg from 'pg';

/** A pooled client held for a piece of work; `release()` gives it back (closed if it broke). */
export interface HeldClient {
  client: pg.PoolClient;
  markBroken(): void;
  release(): void;
}

/**
 * Checks a client out of the pool with an `error` listener for as long as it is held. pg-pool
 * listens only on idle clients: a connection that drops while checked out (the server stopped,
 * the network failed) would emit an `error` nobody handles, and Node would end the process. The
 * query in flight still rejects (a 503 for its caller); the client is then closed, not reused.
 *
 * @example
 * const held = await checkout(pool);
 * try { await held.client.query('SELECT 1'); } finally { held.release(); }
 */
export async function checkout(pool: pg.Pool): Promise<HeldClient> {
  const client = await pool.connect();
  let broken = false;
  const onError = () => {
    broken = true;
  };
  client.on('error', onError);
  return {
    client,
    markBroken() {
      broken = true;
    },
    release() {
      client.off('error', onError);
      client.release(broken);
    },
  };
}
