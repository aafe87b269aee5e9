import { BlockList, isIP } from 'node:net';

// Which addresses the server may fetch from on a user's behalf (cover URLs, issue 26): public
// unicast only. Everything an attacker could aim a server-side fetch at is refused: this machine
// (loopback), the cloud's metadata server (169.254.169.254, link-local), the project's private
// network (RFC 1918, CGNAT, IPv6 unique-local), and every special-purpose range (IANA's IPv4 and
// IPv6 special-purpose registries). Pure logic: the fetcher applies it to each address DNS gives,
// and again after every redirect (functions/src/books/cover-fetch.ts).

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, the cloud metadata server (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255
] as const) {
  NOT_PUBLIC.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64 (could reach any IPv4 address)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo among them)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds any IPv4 address)
  ['fc00::', 7], // unique local (fd00:ec2::254 is a metadata address)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(net, bits, 'ipv6');
}

/** ::ffff:a.b.c.d (and its hex form) as the IPv4 address it is, so the IPv4 rules judge it. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const lower = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (dotted) return { address: dotted[1]!, family: 'ipv4' };
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const n = (parseInt(hex[1]!, 16) << 16) | parseInt(hex[2]!, 16);
    return { address: [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'), family: 'ipv4' };
  }
  return { address: lower, family: isIP(lower) === 4 ? 'ipv4' : 'ipv6' };
}

/**
 * Null when `address` (an IP literal) may be fetched from, otherwise why not. `allowLoopback`:
 * only on the emulators, where the tests serve images from this machine; every other
 * non-public range stays refused there too.
 */
export function addressProblem(address: string, options: { allowLoopback: boolean }): string | null {
  if (isIP(address.replace(/%.*$/, '')) === 0) return `${address} is not an IP address`;
  const ip = unmapped(address);
  if (options.allowLoopback && LOOPBACK.check(ip.address, ip.family)) return null;
  if (NOT_PUBLIC.check(ip.address, ip.family)) return `${ip.address} is a private or reserved address: only public addresses are fetched`;
  return null;
}
