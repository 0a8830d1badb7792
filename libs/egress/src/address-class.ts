import { isIP } from 'node:net';

/**
 * What kind of destination an IP address is, for the egress guard. Only `public` is reachable without
 * `allowPrivate`; `metadata` (cloud instance-metadata endpoints) is never reachable.
 */
export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'metadata';

type Ipv4Range = { base: number; prefix: number; cls: AddressClass };

const v4 = (text: string): number => text.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
const v4range = (cidr: string, cls: AddressClass): Ipv4Range => {
  const [base, prefix] = cidr.split('/');
  return { base: v4(base), prefix: Number(prefix), cls };
};

/** Checked in order; the first match wins (exact metadata addresses before the blocks containing them). */
const IPV4_RANGES: readonly Ipv4Range[] = [
  // Cloud instance-metadata and platform endpoints.
  v4range('169.254.169.254/32', 'metadata'), // AWS, GCP, Azure, OCI, DigitalOcean, OpenStack IMDS
  v4range('169.254.170.2/32', 'metadata'), // AWS ECS task metadata / credentials
  v4range('169.254.170.23/32', 'metadata'), // AWS EKS Pod Identity agent
  v4range('100.100.100.200/32', 'metadata'), // Alibaba Cloud metadata
  v4range('168.63.129.16/32', 'metadata'), // Azure WireServer (platform agent endpoint, a public address)
  // RFC 6890 special-purpose blocks.
  v4range('0.0.0.0/8', 'unspecified'), // "this network"; 0.0.0.0 reaches the local host on Linux
  v4range('10.0.0.0/8', 'private'),
  v4range('100.64.0.0/10', 'private'), // carrier-grade NAT, RFC 6598
  v4range('127.0.0.0/8', 'loopback'),
  v4range('169.254.0.0/16', 'link-local'),
  v4range('172.16.0.0/12', 'private'),
  v4range('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  v4range('192.0.2.0/24', 'reserved'), // TEST-NET-1
  v4range('192.88.99.0/24', 'reserved'), // deprecated 6to4 relay anycast
  v4range('192.168.0.0/16', 'private'),
  v4range('198.18.0.0/15', 'reserved'), // benchmarking
  v4range('198.51.100.0/24', 'reserved'), // TEST-NET-2
  v4range('203.0.113.0/24', 'reserved'), // TEST-NET-3
  v4range('224.0.0.0/4', 'multicast'),
  v4range('240.0.0.0/4', 'reserved'), // future use, includes the limited broadcast 255.255.255.255
];

function classifyIpv4Number(address: number): AddressClass {
  for (const range of IPV4_RANGES) {
    const size = 2 ** (32 - range.prefix);
    if (Math.floor(address / size) === Math.floor(range.base / size)) return range.cls;
  }
  return 'public';
}

/** A class, or where in the address the IPv4 address that decides the class sits (bits above the shift). */
type Ipv6Rule = AddressClass | { ipv4Shift: bigint };
type Ipv6Range = { base: bigint; prefix: number; rule: Ipv6Rule };

const EMBEDDED_IPV4_LOW: Ipv6Rule = { ipv4Shift: 0n };
const EMBEDDED_IPV4_6TO4: Ipv6Rule = { ipv4Shift: 80n };

const v6range = (cidr: string, rule: Ipv6Rule): Ipv6Range => {
  const [base, prefix] = cidr.split('/');
  return { base: ipv6ToBigInt(base), prefix: Number(prefix), rule };
};

/** Checked in order; the first match wins. Whatever is outside 2000::/3 (global unicast) is reserved. */
const IPV6_RANGES: readonly Ipv6Range[] = [
  v6range('::/128', 'unspecified'),
  v6range('::1/128', 'loopback'),
  v6range('::ffff:0:0/96', EMBEDDED_IPV4_LOW), // IPv4-mapped
  v6range('::/96', EMBEDDED_IPV4_LOW), // IPv4-compatible (deprecated)
  v6range('::ffff:0:0:0/96', EMBEDDED_IPV4_LOW), // IPv4-translated (RFC 2765)
  v6range('64:ff9b::/96', EMBEDDED_IPV4_LOW), // NAT64 well-known prefix: the gateway reaches the embedded IPv4
  v6range('64:ff9b:1::/48', 'private'), // local-use NAT64 (RFC 8215)
  v6range('2002::/16', EMBEDDED_IPV4_6TO4), // 6to4: the embedded IPv4 decides
  v6range('fd00:ec2::254/128', 'metadata'), // AWS IMDS over IPv6
  v6range('fd00:ec2::23/128', 'metadata'), // AWS EKS Pod Identity agent over IPv6
  v6range('fc00::/7', 'private'), // unique local
  v6range('fe80::/10', 'link-local'),
  v6range('fec0::/10', 'private'), // deprecated site-local
  v6range('ff00::/8', 'multicast'),
  v6range('100::/64', 'reserved'), // discard-only
  v6range('2001:db8::/32', 'reserved'), // documentation
  v6range('3fff::/20', 'reserved'), // documentation (RFC 9637)
  v6range('2001::/23', 'reserved'), // IETF protocol assignments: Teredo, benchmarking, ORCHID, …
  v6range('2000::/3', 'public'),
  v6range('::/0', 'reserved'),
];

function ipv6ToBigInt(text: string): bigint {
  let groups: number[];
  let address = text;
  const embedded = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  const tail: number[] = [];
  if (embedded) {
    const n = v4(embedded[1]);
    tail.push(Math.floor(n / 65536), n % 65536);
    address = address.slice(0, -embedded[1].length);
    if (address.endsWith(':') && !address.endsWith('::')) address = address.slice(0, -1);
  }
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const gap = address.indexOf('::');
  if (gap >= 0) {
    const head = parse(address.slice(0, gap));
    const rest = [...parse(address.slice(gap + 2)), ...tail];
    groups = [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
  } else {
    groups = [...parse(address), ...tail];
  }
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

function classifyIpv6(address: string): AddressClass {
  const value = ipv6ToBigInt(address);
  for (const range of IPV6_RANGES) {
    const shift = BigInt(128 - range.prefix);
    if (value >> shift !== range.base >> shift) continue;
    if (typeof range.rule === 'string') return range.rule;
    return classifyIpv4Number(Number((value >> range.rule.ipv4Shift) & 0xffffffffn));
  }
  return 'reserved';
}

/**
 * Classifies an IP address literal (IPv4 dotted decimal as `dns.lookup` and WHATWG URL produce it, or IPv6 in any
 * valid textual form, with or without brackets or a zone id). IPv4-mapped, -compatible, -translated, NAT64 and 6to4
 * IPv6 addresses are classified by the IPv4 address they carry, so `::ffff:127.0.0.1` is loopback.
 * @throws TypeError when the text is not an IP address (host names must be resolved first: see `checkUrl`)
 */
export function classifyAddress(ip: string): AddressClass {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const withoutZone = bare.includes('%') ? bare.slice(0, bare.indexOf('%')) : bare;
  switch (isIP(withoutZone)) {
    case 4:
      return classifyIpv4Number(v4(withoutZone));
    case 6:
      return classifyIpv6(withoutZone.toLowerCase());
    default:
      throw new TypeError(`not an IP address: '${ip.length > 60 ? `${ip.slice(0, 60)}…` : ip}'`);
  }
}
