import { AddressClass, classifyAddress } from './address-class';

const table: [string, AddressClass][] = [
  // IPv4 public
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['93.184.215.14', 'public'],
  ['100.63.255.255', 'public'], // just below CGNAT
  ['100.128.0.0', 'public'], // just above CGNAT
  ['172.15.255.255', 'public'], // just below 172.16/12
  ['172.32.0.0', 'public'], // just above 172.16/12
  ['223.255.255.255', 'public'], // just below multicast
  ['11.0.0.0', 'public'],
  ['126.255.255.255', 'public'],
  ['128.0.0.0', 'public'],
  ['169.253.255.255', 'public'],
  ['192.167.255.255', 'public'],
  // IPv4 loopback
  ['127.0.0.1', 'loopback'],
  ['127.0.0.2', 'loopback'],
  ['127.255.255.255', 'loopback'],
  // IPv4 unspecified / this network
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['0.255.255.255', 'unspecified'],
  // IPv4 private
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.0.1', 'private'],
  ['192.168.255.255', 'private'],
  ['100.64.0.1', 'private'], // CGNAT
  ['100.127.255.255', 'private'],
  // IPv4 link-local and metadata
  ['169.254.0.1', 'link-local'],
  ['169.254.169.253', 'link-local'],
  ['169.254.169.254', 'metadata'],
  ['169.254.170.2', 'metadata'],
  ['169.254.170.23', 'metadata'],
  ['100.100.100.200', 'metadata'],
  ['168.63.129.16', 'metadata'],
  // IPv4 multicast and reserved
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'reserved'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['192.88.99.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['198.19.255.255', 'reserved'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  // IPv6 basics in several notations
  ['::', 'unspecified'],
  ['0:0:0:0:0:0:0:0', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['0000:0000:0000:0000:0000:0000:0000:0001', 'loopback'],
  ['[::1]', 'loopback'],
  ['2606:4700:4700::1111', 'public'],
  ['2001:4860:4860::8888', 'public'],
  ['2A00:1450:4001:0801::200E', 'public'], // upper case
  ['fc00::1', 'private'],
  ['fd12:3456:789a::1', 'private'],
  ['FDFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF', 'private'],
  ['fd00:ec2::254', 'metadata'],
  ['fd00:ec2::23', 'metadata'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'], // zone id
  ['febf:ffff::1', 'link-local'],
  ['fec0::1', 'private'], // deprecated site-local
  ['ff02::1', 'multicast'],
  ['ff05::1:3', 'multicast'],
  ['2001:db8::1', 'reserved'],
  ['3fff::1', 'reserved'],
  ['100::1', 'reserved'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'], // Teredo
  ['2001:2::1', 'reserved'], // benchmarking
  ['4000::1', 'reserved'], // outside 2000::/3
  ['5f00::1', 'reserved'],
  // IPv4-mapped / compatible / translated IPv6
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
  ['::FFFF:127.0.0.1', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:a00:1', 'private'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['::ffff:a9fe:a9fe', 'metadata'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::ffff:8.8.8.8', 'public'],
  ['::127.0.0.1', 'loopback'], // IPv4-compatible
  ['::7f00:1', 'loopback'],
  ['::192.168.1.1', 'private'],
  ['::ffff:0:127.0.0.1', 'loopback'], // IPv4-translated
  ['::ffff:0:a9fe:a9fe', 'metadata'],
  // NAT64 and 6to4 carry an IPv4 address
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['64:ff9b::7f00:1', 'loopback'],
  ['64:ff9b::a9fe:a9fe', 'metadata'],
  ['64:ff9b::808:808', 'public'],
  ['64:ff9b:1::1', 'private'],
  ['2002:7f00:1::1', 'loopback'],
  ['2002:c0a8:101::1', 'private'],
  ['2002:a9fe:a9fe::', 'metadata'],
  ['2002:808:808::1', 'public'],
];

describe('classifyAddress', () => {
  it.each(table)('%s is %s', (ip, expected) => {
    expect(classifyAddress(ip)).toBe(expected);
  });

  it.each(['localhost', 'example.com', '0177.0.0.1', '127.1', '2130706433', '0x7f.0.0.1', '1.2.3', '::ffff::1', ''])(
    'refuses %p: not an IP literal (notations other than dotted decimal go through checkUrl)',
    (text) => {
      expect(() => classifyAddress(text)).toThrow(TypeError);
    },
  );
});
