/**
 * What the first `npm start` prints (and `npm run admin -- sandbox-credentials --rotate` prints
 * again): the sandbox credentials as `export` lines a shell takes as they are, named as the
 * docs' curl samples use them, and the first calls to make, a service first.
 */
export const shellVariables = {
  baseUrl: 'PAYMENTS_BASE_URL',
  apiUser: 'PAYMENTS_API_USER',
  apiKey: 'PAYMENTS_API_KEY',
} as const;

export interface SandboxCredentials {
  apiUser: string;
  testKey: string;
}

/** The three `export` lines, for the API at `apiUrl` (ending in `/v1`). */
function exportLines(apiUrl: string, credentials: SandboxCredentials): string[] {
  return [
    `export ${shellVariables.baseUrl}=${apiUrl}`,
    `export ${shellVariables.apiUser}=${credentials.apiUser}`,
    `export ${shellVariables.apiKey}=${credentials.testKey}`,
  ];
}

/** The credentials block: export lines, then a service and a balance call that use them. */
export function credentialsMessage(apiUrl: string, credentials: SandboxCredentials): string[] {
  const auth = `-H "Authorization: Bearer $${shellVariables.apiKey}" -H "X-API-User: $${shellVariables.apiUser}"`;
  return [
    'Paste these lines into your shell; the curl samples in the docs use them:',
    '',
    ...exportLines(apiUrl, credentials).map((line) => `  ${line}`),
    '',
    'Every payment names a service: create one first, then try the balance:',
    '',
    `  curl -s -X POST "$${shellVariables.baseUrl}/services" ${auth} -H 'Content-Type: application/json' -d '{"name":"My shop"}'`,
    `  curl -s "$${shellVariables.baseUrl}/balance" ${auth}`,
  ];
}

/**
 * @example
 * console.log(firstStartMessage('http://127.0.0.1:3000/v1', 'http://127.0.0.1:3000', account, owner));
 */
export function firstStartMessage(
  apiUrl: string,
  publicUrl: string,
  credentials: SandboxCredentials,
  dashboardOwner?: { email: string; password: string },
): string {
  return [
    '',
    'A sandbox account was created for you. Its test key is shown once (keys are stored hashed).',
    '',
    ...credentialsMessage(apiUrl, credentials),
    '',
    `Docs: ${publicUrl}/docs   Contract: ${publicUrl}/openapi.yaml`,
    ...(dashboardOwner
      ? [
          `Dashboard: ${publicUrl}/dashboard   (email ${dashboardOwner.email}, password ${dashboardOwner.password})`,
        ]
      : []),
    // The live key moves real money: it is never printed where terminals and CI logs keep it.
    'Live key: not shown; get one with npm run admin -- reset-keys --api-user <API user> --mode live',
    'Lost the key? npm run admin -- sandbox-credentials --rotate (a new test key, the old one stops working)',
    'More accounts and keys: npm run admin -- --help',
    '',
  ].join('\n');
}
