import { describe, expect, it } from 'vitest';
import { addressProblem } from './public-address';

// The address check behind cover URLs (issue 26), as pure logic: production refuses every
// non-public address; the emulators' policy adds loopback only.

const production = { allowLoopback: false };
const emulators = { allowLoopback: true };

describe('addressProblem', () => {
  it('refuses the cloud metadata server and link-local addresses, in production and on the emulators', () => {
    for (const policy of [production, emulators]) {
      expect(addressProblem('169.254.169.254', policy)).toMatch(/private or reserved/);
      expect(addressProblem('169.254.0.1', policy)).not.toBeNull();
      expect(addressProblem('fe80::1', policy)).not.toBeNull();
      expect(addressProblem('fd00:ec2::254', policy)).not.toBeNull(); // AWS's IPv6 metadata address
      expect(addressProblem('::ffff:169.254.169.254', policy)).not.toBeNull(); // IPv4-mapped
      expect(addressProblem('::ffff:a9fe:a9fe', policy)).not.toBeNull(); // the same, in hex
    }
  });

  it('refuses loopback in production', () => {
    expect(addressProblem('127.0.0.1', production)).toMatch(/127\.0\.0\.1 is a private or reserved address/);
    expect(addressProblem('127.1.2.3', production)).not.toBeNull();
    expect(addressProblem('::1', production)).not.toBeNull();
    expect(addressProblem('::ffff:127.0.0.1', production)).not.toBeNull();
    expect(addressProblem('0.0.0.0', production)).not.toBeNull();
    expect(addressProblem('::', production)).not.toBeNull();
  });

  it('allows loopback on the emulators only', () => {
    expect(addressProblem('127.0.0.1', emulators)).toBeNull();
    expect(addressProblem('::1', emulators)).toBeNull();
  });

  it('refuses private, shared and special-purpose ranges everywhere', () => {
    const refused = [
      '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.254', '192.168.1.1', '100.64.0.1', '100.127.255.255',
      '192.0.0.8', '192.0.2.1', '198.18.0.1', '198.51.100.7', '203.0.113.9', '224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255',
      'fc00::1', 'fd12:3456::1', 'fec0::1', 'ff02::1', '2001:db8::1', '64:ff9b::a00:1', '2002:a00:1::1', '2001::1', '100::1', '::ffff:10.0.0.1',
    ];
    for (const address of refused) {
      expect(addressProblem(address, production), address).not.toBeNull();
      expect(addressProblem(address, emulators), address).not.toBeNull();
    }
  });

  it('allows public addresses, including the neighbours of the refused ranges', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '169.253.255.255', '11.0.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8']) {
      expect(addressProblem(address, production), address).toBeNull();
    }
  });

  it('refuses what is not an IP address', () => {
    expect(addressProblem('example.com', production)).not.toBeNull();
    expect(addressProblem('', production)).not.toBeNull();
  });
});
