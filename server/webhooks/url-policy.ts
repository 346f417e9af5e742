/**
 * Which URLs an account may register as webhook endpoints, and which address a delivery may
 * connect to. Our server makes the requests, so a URL pointing inside our network would let
 * anyone with a key make us call our own services (server-side request forgery). By default,
 * in both modes, the host may not be, or resolve to, a loopback, private, link-local,
 * metadata or otherwise non-public address; live endpoints must also use https. Only an
 * operator who sets `WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST=true` lets sandbox endpoints point at
 * local receivers; live endpoints never may.
 *
 * A check at registration cannot stop a host whose DNS answer changes later (DNS rebinding),
 * so each delivery resolves the host once with `resolveWebhookTarget`, checks every address,
 * and connects to the address it checked (see deliver.ts), never resolving the name again.
 */
import { lookup } from 'node:dns/promises';
import { isIPv4, isIPv6 } from 'node:net';

export type WebhookUrlCheck = { ok: true } | { ok: false; reason: string };

/** What a URL must satisfy: https only (live), and whether non-public hosts are allowed. */
export interface WebhookUrlPolicy {
  requireHttps: boolean;
  allowPrivate: boolean;
  /**
   * The setting that would allow a non-public host, named in the refusal: only where it could
   * (test mode); a live refusal names none, as nothing allows one there.
   */
  privateAllowedBy?: string;
}

/** The setting that lets test-mode endpoints point at this machine or a private network. */
const allowPrivateSetting = 'WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST';

/** The policy of a mode: live is always public https; test is public unless the operator opted in. */
export function webhookUrlPolicy(mode: 'live' | 'test', allowPrivateInTest: boolean): WebhookUrlPolicy {
  return mode === 'live'
    ? { requireHttps: true, allowPrivate: false }
    : { requireHttps: false, allowPrivate: allowPrivateInTest, privateAllowedBy: allowPrivateSetting };
}

/** Where a delivery may connect: the one checked address, or why none may be used. */
export type WebhookTarget = { ok: true; address: string } | { ok: false; reason: string };

/** Resolves a host name to every address it has, IPv4 and IPv6. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

const resolveWithSystemResolver: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** Why an address is not a public destination. */
export type AddressKind =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'carrier-grade NAT'
  | 'unique local'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'documentation';

interface Range<T> {
  network: T;
  prefix: number;
  kind: AddressKind;
}

const ipv4Ranges: Range<number>[] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  // 240/4 includes the broadcast address 255.255.255.255.
  ['240.0.0.0', 4, 'reserved'],
].map(([network, prefix, kind]) => ({
  network: parseIPv4(network as string)!,
  prefix: prefix as number,
  kind: kind as AddressKind,
}));

const ipv6Ranges: Range<bigint>[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  // IPv4-compatible addresses (deprecated, so nothing public lives there).
  ['::', 96, 'reserved'],
  ['64:ff9b:1::', 48, 'reserved'],
  ['100::', 64, 'reserved'],
  // Teredo tunnels.
  ['2001::', 32, 'reserved'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique local'],
  ['fe80::', 10, 'link-local'],
  // Site-local, deprecated but still routed by some networks.
  ['fec0::', 10, 'private'],
  ['ff00::', 8, 'multicast'],
].map(([network, prefix, kind]) => ({
  network: parseIPv6(network as string)!,
  prefix: prefix as number,
  kind: kind as AddressKind,
}));

/** IPv6 ranges that carry an IPv4 address, and where: a bit offset from the left. */
const ipv6EmbeddingIPv4: { network: bigint; prefix: number; offset: number }[] = [
  { network: parseIPv6('::ffff:0:0')!, prefix: 96, offset: 96 }, // IPv4-mapped
  { network: parseIPv6('::ffff:0:0:0')!, prefix: 96, offset: 96 }, // IPv4-translated (SIIT)
  { network: parseIPv6('64:ff9b::')!, prefix: 96, offset: 96 }, // NAT64
  { network: parseIPv6('2002::')!, prefix: 16, offset: 16 }, // 6to4
];

/**
 * Checks a webhook URL before it is registered. Never throws: a URL that cannot be parsed or
 * resolved is simply not accepted. When private hosts are allowed the host is not resolved at
 * all (it may only exist on the integrator's network); each delivery resolves it again anyway.
 *
 * @param policy from `webhookUrlPolicy(mode, config.webhookAllowPrivateUrlsInTest)`
 * @param resolveHost how host names are resolved (tests inject one; the default is the system resolver)
 * @returns `{ ok: true }`, or `{ ok: false, reason }` with a message fit for an API error
 * @example
 * const check = await checkWebhookUrl(body.url, webhookUrlPolicy(auth.mode, false));
 * if (!check.ok) throw new ApiError(400, 'invalid_field', check.reason, { param: 'url' });
 */
export async function checkWebhookUrl(
  url: string,
  policy: WebhookUrlPolicy,
  resolveHost: ResolveHost = resolveWithSystemResolver,
): Promise<WebhookUrlCheck> {
  const parsed = checkForm(url, policy);
  if (!('host' in parsed)) return parsed;
  if (policy.allowPrivate) return { ok: true };
  const target = await resolvePublic(parsed.host, resolveHost, policy);
  return target.ok ? { ok: true } : target;
}

/**
 * Resolves a webhook URL's host once, checks every address it has against the policy, and
 * returns the address to connect to. The caller connects to that address and nowhere else.
 *
 * @example
 * const target = await resolveWebhookTarget(endpoint.url, webhookUrlPolicy(endpoint.mode, false));
 * if (target.ok) await deliverWebhook({ url: endpoint.url, address: target.address, ... });
 */
export async function resolveWebhookTarget(
  url: string,
  policy: WebhookUrlPolicy,
  resolveHost: ResolveHost = resolveWithSystemResolver,
): Promise<WebhookTarget> {
  const parsed = checkForm(url, policy);
  if (!('host' in parsed)) return parsed;
  if (!policy.allowPrivate) return resolvePublic(parsed.host, resolveHost, policy);
  if (isIPv4(parsed.host) || isIPv6(parsed.host)) return { ok: true, address: parsed.host };
  const addresses = await resolveAll(parsed.host, resolveHost);
  const [first] = addresses;
  return first === undefined ? unresolved(parsed.host) : { ok: true, address: first };
}

/** The URL's form: scheme, no credentials, https when required; returns the bare host. */
function checkForm(url: string, policy: WebhookUrlPolicy): { host: string } | { ok: false; reason: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse('The webhook URL is not a valid absolute URL.');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return refuse(`Webhook URLs must use http or https, not ${parsed.protocol.slice(0, -1)}.`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return refuse(
      'Webhook URLs must not contain a user name or password: verify deliveries with the signature instead.',
    );
  }
  if (policy.requireHttps && parsed.protocol !== 'https:') {
    return refuse('Live webhook URLs must use https.');
  }
  // The URL parser has already normalised the host: lower case, IPv4 shorthands such as
  // `127.1`, `2130706433` or `0x7f000001` written out, IPv6 compressed and bracketed.
  return { host: parsed.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.+$/, '') };
}

const mustBePublic = 'A webhook URL must be public';

async function resolvePublic(
  host: string,
  resolveHost: ResolveHost,
  policy: WebhookUrlPolicy,
): Promise<WebhookTarget> {
  // Where a setting would allow the host (test mode), the refusal says which.
  const refusePrivate = (reason: string) =>
    refuse(
      policy.privateAllowedBy
        ? `${reason} Test-mode endpoints may point at such a host when the server runs with ${policy.privateAllowedBy}=true.`
        : reason,
    );
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return refusePrivate(`${mustBePublic}: ${host} is this machine.`);
  }
  if (isIPv4(host) || isIPv6(host)) {
    const kind = nonPublicAddressKind(host);
    return kind
      ? refusePrivate(`${mustBePublic}: ${host} is ${article(kind)} ${kind} address.`)
      : { ok: true, address: host };
  }
  const addresses = await resolveAll(host, resolveHost);
  const [first] = addresses;
  if (first === undefined) return unresolved(host);
  // Every address must be public: a client that picks another one must not reach inside.
  for (const address of addresses) {
    const kind = nonPublicAddressKind(address);
    if (kind) return refusePrivate(`${mustBePublic}: ${host} resolves to ${article(kind)} ${kind} address.`);
  }
  return { ok: true, address: first };
}

async function resolveAll(host: string, resolveHost: ResolveHost): Promise<string[]> {
  try {
    return await resolveHost(host);
  } catch {
    return [];
  }
}

function unresolved(host: string): { ok: false; reason: string } {
  return refuse(`The host ${host} could not be resolved; a webhook URL must name a reachable host.`);
}

/**
 * Why an IP address is not a public destination, or `null` when it is. Anything that is not
 * an IP address at all counts as reserved, so that a surprising resolver answer fails closed.
 */
export function nonPublicAddressKind(address: string): AddressKind | null {
  const ipv4 = parseIPv4(address);
  if (ipv4 !== null) return ipv4AddressKind(ipv4);
  const ipv6 = parseIPv6(address);
  if (ipv6 === null) return 'reserved';
  for (const { network, prefix, offset } of ipv6EmbeddingIPv4) {
    if (inIPv6Range(ipv6, network, prefix)) {
      return ipv4AddressKind(Number((ipv6 >> BigInt(128 - offset - 32)) & 0xffffffffn));
    }
  }
  return ipv6Ranges.find((range) => inIPv6Range(ipv6, range.network, range.prefix))?.kind ?? null;
}

function ipv4AddressKind(address: number): AddressKind | null {
  for (const { network, prefix, kind } of ipv4Ranges) {
    // `>>> 0` keeps the comparison unsigned; prefixes here are never 0 or 32-bit shifts of 32.
    if (address >>> (32 - prefix) === network >>> (32 - prefix)) return kind;
  }
  return null;
}

function inIPv6Range(address: bigint, network: bigint, prefix: number): boolean {
  const shift = BigInt(128 - prefix);
  return address >> shift === network >> shift;
}

function parseIPv4(address: string): number | null {
  if (!isIPv4(address)) return null;
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

function parseIPv6(address: string): bigint | null {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (!isIPv6(text)) return null;

  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const ipv4 = parseIPv4(tail);
    if (ipv4 === null) return null;
    text = `${text.slice(0, lastColon + 1)}${(ipv4 >>> 16).toString(16)}:${(ipv4 & 0xffff).toString(16)}`;
  }

  const [head = '', rest] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const missing = 8 - headGroups.length - restGroups.length;
  const groups =
    rest === undefined ? headGroups : [...headGroups, ...Array(missing).fill('0'), ...restGroups];
  if (groups.length !== 8) return null;
  return groups.reduce((value, group) => (value << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}

function article(kind: AddressKind): string {
  return /^[aeiou]/.test(kind) && kind !== 'unique local' ? 'an' : 'a';
}

function refuse(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}
