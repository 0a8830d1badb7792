import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AddressClass, classifyAddress } from './address-class';
import { EgressFailedError, EgressFailure, EgressRefusal, EgressRefusedError } from './egress.error';

/** Where outgoing requests may go. Loaded from EGRESS_ALLOW_HTTP / EGRESS_ALLOW_PRIVATE (`egressSettings` in @docrender/config). */
export type EgressPolicy = {
  /** Plain http:// allowed besides https://. */
  allowHttp: boolean;
  /** Non-public addresses (loopback, private, link-local, …) allowed; cloud metadata addresses stay refused. */
  allowPrivate: boolean;
};

/** A destination that passed the policy: the parsed URL and every address it may be reached at (all allowed). */
export type CheckedUrl = { url: URL; addresses: string[] };

/** Whether a class of address may be contacted under a policy. Metadata endpoints never may. */
export function isAddressAllowed(cls: AddressClass, policy: Pick<EgressPolicy, 'allowPrivate'>): boolean {
  if (cls === 'public') return true;
  if (cls === 'metadata') return false;
  return policy.allowPrivate;
}

/** A URL that passed the checks that need no DNS: scheme, credentials, and the host when it is an address literal. */
export type LiteralCheckedUrl = {
  url: URL;
  /** The host without IPv6 brackets. */
  host: string;
  /** The host when it is an IP address (then nothing is left to check), null for a name that must still be resolved. */
  address: string | null;
};

/**
 * The checks of the egress policy that need no DNS, in the order they are made: the URL parses (WHATWG rules, which
 * normalise every IPv4 notation — `2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1`, full-width digits — to dotted decimal
 * and IPv6 to its canonical form), the scheme is allowed, an address literal is of an allowed class (a `localhost`
 * name, RFC 6761, counts as loopback whatever a resolver says), and the URL carries no credentials.
 * `checkUrl` starts with exactly this; the API gateway runs it alone when it accepts a callback URL, so a URL that can
 * never be called is refused at once, while names are still resolved and checked at each delivery (DNS rebinding).
 * @throws EgressRefusedError invalid URL, scheme, address class, or credentials in the URL
 */
export function checkUrlLiteral(url: string | URL, policy: EgressPolicy): LiteralCheckedUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EgressRefusedError(EgressRefusal.InvalidUrl, '(invalid URL)', 'not an absolute URL');
  }
  const target = originOf(parsed);
  const schemes = policy.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(parsed.protocol)) {
    throw new EgressRefusedError(EgressRefusal.SchemeNotAllowed, target, `scheme ${parsed.protocol} is not one of ${schemes.join(' ')}`);
  }
  const host = hostOf(parsed);
  const address = isIP(host) ? host : null;
  if (address !== null) assertAllowed(address, classifyAddress(address), target, policy);
  else if (isLocalhostName(host)) assertAllowed(host, 'loopback', target, policy);
  if (parsed.username !== '' || parsed.password !== '') {
    throw new EgressRefusedError(EgressRefusal.CredentialsInUrl, target, 'the URL carries a user name or password');
  }
  return { url: parsed, host, address };
}

/**
 * Checks a destination against the egress policy before anything connects to it: `checkUrlLiteral`, then a host name
 * is resolved with `dns.lookup(all)` and EVERY address must be allowed.
 * Connect only to the returned addresses (see `guardedFetch`), never to a fresh lookup of the name.
 * @throws EgressRefusedError invalid URL, scheme, credentials, or a non-public address (the reason names the class)
 * @throws EgressFailedError DnsLookupFailed when the name does not resolve
 */
export async function checkUrl(url: string | URL, policy: EgressPolicy): Promise<CheckedUrl> {
  const { url: parsed, host, address } = checkUrlLiteral(url, policy);
  if (address !== null) return { url: parsed, addresses: [address] };
  const target = originOf(parsed);
  const addresses = await resolve(host, target);
  for (const ip of addresses) assertAllowed(ip, classifyAddress(ip), target, policy);
  return { url: parsed, addresses };
}

function assertAllowed(ip: string, cls: AddressClass, target: string, policy: EgressPolicy): void {
  if (isAddressAllowed(cls, policy)) return;
  throw new EgressRefusedError(
    EgressRefusal.AddressNotAllowed,
    target,
    `${ip} is a ${cls} address${cls === 'metadata' ? ' (never allowed)' : ''}`,
    { ip, class: cls },
  );
}

/** `localhost` and every name under it are loopback (RFC 6761 6.3), whatever a resolver answers. */
function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** The URL's host without IPv6 brackets, as `http.request` and `dns.lookup` take it. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** `scheme://host[:port]`, no credentials, path or query. */
export function originOf(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

async function resolve(host: string, target: string): Promise<string[]> {
  let found: { address: string }[];
  try {
    found = await lookup(host, { all: true, verbatim: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new EgressFailedError(EgressFailure.DnsLookupFailed, target, `${host} did not resolve (${code})`, { cause: error });
  }
  if (found.length === 0) throw new EgressFailedError(EgressFailure.DnsLookupFailed, target, `${host} resolved to no address`);
  return [...new Set(found.map((entry) => entry.address))];
}
