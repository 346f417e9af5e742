/**
 * The id the API gave a call (`X-Request-Id`), on success and error alike; errors repeat it as
 * `error.error.request_id`. Quote it when you contact support. `undefined` only when the
 * response did not come from the API (a proxy's error page, say).
 *
 * @example
 * ```ts
 * const { error, response } = await client.POST('/payouts', { body });
 * if (error) console.error(`payout refused: ${error.error.code} (request ${requestIdOf(response)})`);
 * ```
 */
export function requestIdOf(response: Response): string | undefined {
  return response.headers.get('X-Request-Id') ?? undefined;
}
