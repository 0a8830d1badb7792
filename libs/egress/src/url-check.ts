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

/**
 * Checks a destination against the egress policy before anything connects to it.
 * The URL is parsed with WHATWG URL rules, which normalise every IPv4 notation (`2130706433`, `0177.0.0.1`, `0x7f.1`,
 * `127.1`, full-width digits) to dotted decimal and IPv6 to its canonical form, so the host is classified as a browser
 * or `http.request` would reach it. A host name is resolved with `dns.lookup(all)`; EVERY address must be allowed.
 * Connect only to the returned addresses (see `guardedFetch`), never to a fresh lookup of the name.
 * @throws EgressRefusedError invalid URL, scheme, or a non-public address (the reason names the class)
 * @throws EgressFailedError DnsLookupFailed when the name does not resolve
 */
export async function checkUrl(url: string | URL, policy: EgressPolicy): Promise<CheckedUrl> {
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
  const addresses = isIP(host) ? [host] : await resolve(host, target);
  for (const ip of addresses) {
    const cls = classifyAddress(ip);
    if (!isAddressAllowed(cls, policy)) {
      throw new EgressRefusedError(
        EgressRefusal.AddressNotAllowed,
        target,
        `${ip} is a ${cls} address${cls === 'metadata' ? ' (never allowed)' : ''}`,
        { ip, class: cls },
      );
    }
  }
  return { url: parsed, addresses };
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
