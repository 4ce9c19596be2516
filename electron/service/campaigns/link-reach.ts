// Whether a customer's phone can open a campaign's short links. On a line that delivers through the
// business's own provider (shared/gateways.ts), the texts reach real phones on the mobile network:
// short links under an address only this computer or its local network can open (the local
// server's own address is the default base) would be dead in every message, each one paid for.
// This is the one rule; campaign creation applies it (so the editor's quote and POST
// /v2/sms/campaigns say the same) and so does an execution's start, which fixes the base for its
// run. The composer writes no short links, so it has nothing to check.
//
// Only the address itself is judged: a name is not looked up (a public name that resolves to a
// private address is the business's own setup, and a check must not wait on DNS).
import { isUpstream } from '../../../shared/gateways';
import { ApiCode } from '../../../shared/status';
import type { Line } from '../../../shared/ipc/schemas';
import { ServiceError } from '../errors';

/** Why a phone cannot open an address under this base, or null when it can. */
export function unreachableFromPhones(base: string): string | null {
  let host: string;
  try {
    host = new URL(base).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return 'not an address';
  }
  if (host.startsWith('[')) return ipv6Fault(host.slice(1, -1));
  // The URL parser writes every IPv4 form (127.1, 0x7f.1, 2130706433) as four decimal numbers.
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (v4) return ipv4Fault(v4.slice(1).map(Number));
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback (localhost)';
  // Names only a local network answers (RFC 6762 .local, RFC 8375 home.arpa, ICANN's .internal).
  if (/\.(local|home\.arpa|internal)$/.test(host)) return 'a local network name';
  if (!host.includes('.')) return 'a computer name without a domain';
  return null;
}

/** IPv4 blocks a phone on the internet cannot reach (IANA special-purpose registry). */
const IPV4_BLOCKS: ReadonlyArray<[first: number, bits: number, why: string]> = [
  [0x00000000, 8, 'this network (0.0.0.0/8)'],
  [0x0a000000, 8, 'private (10.0.0.0/8)'],
  [0x64400000, 10, 'carrier-grade NAT (100.64.0.0/10)'],
  [0x7f000000, 8, 'loopback (127.0.0.0/8)'],
  [0xa9fe0000, 16, 'link-local (169.254.0.0/16)'],
  [0xac100000, 12, 'private (172.16.0.0/12)'],
  [0xc0000000, 24, 'reserved (192.0.0.0/24)'],
  [0xc0000200, 24, 'documentation (192.0.2.0/24)'],
  [0xc0a80000, 16, 'private (192.168.0.0/16)'],
  [0xc6120000, 15, 'benchmarking (198.18.0.0/15)'],
  [0xc6336400, 24, 'documentation (198.51.100.0/24)'],
  [0xcb007100, 24, 'documentation (203.0.113.0/24)'],
  [0xe0000000, 3, 'multicast or reserved (224.0.0.0/3)'],
];

function ipv4Fault(octets: number[]): string | null {
  const value = octets.reduce((n, octet) => n * 256 + octet, 0);
  for (const [first, bits, why] of IPV4_BLOCKS) {
    const size = 2 ** (32 - bits);
    if (value >= first && value < first + size) return why;
  }
  return null;
}

function ipv6Fault(address: string): string | null {
  const groups = ipv6Groups(address);
  if (groups === null) return 'not an address';
  if (groups.every((g) => g === 0)) return 'unspecified (::)';
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return 'loopback (::1)';
  // ::ffff:a.b.c.d (the parser writes it as ::ffff:7f00:1): the IPv4 address decides.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return ipv4Fault([groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff]);
  if ((groups[0]! & 0xfe00) === 0xfc00) return 'private (fc00::/7)';
  if ((groups[0]! & 0xffc0) === 0xfe80) return 'link-local (fe80::/10)';
  if ((groups[0]! & 0xff00) === 0xff00) return 'multicast (ff00::/8)';
  if (groups[0] === 0x2001 && groups[1] === 0x0db8) return 'documentation (2001:db8::/32)';
  return null;
}

/** The eight 16-bit groups of an address as the URL parser writes it (hex, `::` for a run of zeros). */
function ipv6Groups(address: string): number[] | null {
  const [head = '', tail, ...more] = address.split('::');
  if (more.length > 0) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const before = parse(head);
  const after = tail === undefined ? [] : parse(tail);
  const zeros = 8 - before.length - after.length;
  if (tail === undefined ? zeros !== 0 : zeros < 0) return null;
  const groups = [...before, ...new Array<number>(zeros).fill(0), ...after];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/**
 * The refusal of short links under `base` on `line`, or null: only a line with a real provider
 * reaches phones, and only links sent as short links (tracked, in the text) need the base.
 */
export function linkReachFault(line: Line | undefined, base: string, writesShortLinks: boolean): ServiceError | null {
  if (!line || !isUpstream(line.gateway.kind) || !writesShortLinks) return null;
  const why = unreachableFromPhones(base);
  if (why === null) return null;
  return new ServiceError(
    ApiCode.BadRequest,
    `links: short links under ${base} cannot be opened from a phone (${why}); set a public short link base, ` +
      'or send the links untracked (track_links=false)',
    'short_link_base_unreachable',
  );
}
