import { randomUUID } from 'node:crypto';
import { httpCall } from '../http-call.js';

/**
 * MTN's sandbox provisioning API (momodeveloper.mtn.com, "API User and API Key Management"):
 * `POST /v1_0/apiuser` with the new user's UUID as X-Reference-Id and the host of our callback
 * URL as `providerCallbackHost`, then `POST /v1_0/apiuser/{id}/apikey`, which answers the key.
 * Both authenticate with a product's subscription key (Ocp-Apim-Subscription-Key). Production
 * users come from MTN's partner portal instead: there is no such API there.
 */
export interface ProvisionedUser {
  apiUser: string;
  apiKey: string;
}

export async function provisionMtnSandboxUser(options: {
  baseUrl: string;
  subscriptionKey: string;
  providerCallbackHost: string;
  timeoutMs?: number;
}): Promise<ProvisionedUser> {
  const base = options.baseUrl.replace(/\/$/, '');
  const timeoutMs = options.timeoutMs ?? 15_000;
  const apiUser = randomUUID();
  const headers = {
    'ocp-apim-subscription-key': options.subscriptionKey,
    'content-type': 'application/json',
  };
  const created = await httpCall(
    `${base}/v1_0/apiuser`,
    {
      method: 'POST',
      headers: { ...headers, 'x-reference-id': apiUser },
      body: JSON.stringify({ providerCallbackHost: options.providerCallbackHost }),
    },
    timeoutMs,
  );
  if (!created.ok || created.status !== 201) throw new Error(`creating the API user: ${why(created)}`);
  const keyed = await httpCall(
    `${base}/v1_0/apiuser/${apiUser}/apikey`,
    { method: 'POST', headers },
    timeoutMs,
  );
  const apiKey = keyed.ok ? (keyed.body as { apiKey?: unknown } | null)?.apiKey : undefined;
  if (!keyed.ok || keyed.status !== 201 || typeof apiKey !== 'string') {
    throw new Error(`creating the API key: ${why(keyed)}`);
  }
  return { apiUser, apiKey };
}

function why(answer: Awaited<ReturnType<typeof httpCall>>): string {
  if (!answer.ok)
    return answer.kind === 'timeout' ? 'MTN did not answer in time' : 'MTN could not be reached';
  if (answer.status === 401)
    return 'MTN refused the subscription key (HTTP 401): copy it again from your profile';
  return `MTN answered HTTP ${answer.status}`;
}
