/**
 * Which URLs an account may register as webhook endpoints. Our server makes the requests, so
 * a URL pointing inside our network would let anyone with a key make us call our own services
 * (server-side request forgery). Live endpoints must therefore be public: the host may not be,
 * or resolve to, a loopback, private, link-local or otherwise non-public address. Sandbox
 * endpoints may point anywhere (integrators test against their own machines); they must still
 * be plain http(s) without credentials.
 *
 * A check at registration cannot stop a host whose DNS answer changes later (DNS rebinding):
 * the delivery worker should run the same check again before each live delivery.
 */
import { lookup } from 'node:dns/promises';
import { isIPv4, isIPv6 } from 'node:net';

export type WebhookUrlCheck = { ok: true } | { ok: false; reason: string };

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
 * Checks a webhook URL before it is registered (and, in live mode, before each delivery).
 * Never throws: a URL that cannot be parsed or resolved is simply not accepted.
 *
 * @param mode `live` also requires a public host; `test` only checks the form of the URL
 * @param resolveHost how host names are resolved (tests inject one; the default is the system resolver)
 * @returns `{ ok: true }`, or `{ ok: false, reason }` with a message fit for an API error
 * @example
 * const check = await checkWebhookUrl(body.url, auth.mode);
 * if (!check.ok) throw new ApiError(400, 'invalid_field', check.reason, { param: 'url' });
 */
export async function checkWebhookUrl(
  url: string,
  mode: 'live' | 'test',
  resolveHost: ResolveHost = resolveWithSystemResolver,
): Promise<WebhookUrlCheck> {
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
  if (mode === 'test') return { ok: true };

  // The URL parser has already normalised the host: lower case, IPv4 shorthands such as
  // `127.1` or `0x7f000001` written out, IPv6 compressed and bracketed.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.+$/, '');
  const mustBePublic = 'In live mode a webhook URL must be public';
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return refuse(`${mustBePublic}: ${host} is this machine.`);
  }
  if (isIPv4(host) || isIPv6(host)) {
    const kind = nonPublicAddressKind(host);
    return kind ? refuse(`${mustBePublic}: ${host} is ${article(kind)} ${kind} address.`) : { ok: true };
  }

  let addresses: string[];
  try {
    addresses = await resolveHost(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) {
    return refuse(`The host ${host} could not be resolved; a live webhook URL must name a public host.`);
  }
  // Every address must be public: the HTTP client may connect to any of them.
  for (const address of addresses) {
    const kind = nonPublicAddressKind(address);
    if (kind) return refuse(`${mustBePublic}: ${host} resolves to ${article(kind)} ${kind} address.`);
  }
  return { ok: true };
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

function refuse(reason: string): WebhookUrlCheck {
  return { ok: false, reason };
}
