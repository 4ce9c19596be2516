// The account's IP allow-list (spec 5: version 1 needs the caller's server IP registered). Entries
// are single addresses (IPv4 or IPv6) or CIDR ranges (`192.168.1.0/24`); an IPv4 address seen as
// IPv4-mapped IPv6 (`::ffff:127.0.0.1`, what a dual-stack socket reports) is its IPv4 self. An
// empty list allows nobody: the previous provider asked for an address before any v1 call.
import net from 'node:net';

/** The address as it is compared: IPv4-mapped IPv6 unwrapped, IPv6 lower-cased. */
export function canonicalIp(ip: string): string {
  const bare = ip
    .trim()
    .replace(/^\[|\]$/g, '')
    .toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(bare);
  return mapped ? mapped[1]! : bare;
}

/** Whether `entry` is something the list can hold: an address or a CIDR range. */
export function isAllowlistEntry(entry: string): boolean {
  const [address, bits, ...rest] = entry.trim().split('/');
  if (rest.length > 0 || address === undefined) return false;
  const family = net.isIP(canonicalIp(address));
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

export function ipAllowed(allowlist: readonly string[], ip: string | undefined): boolean {
  if (!ip) return false;
  const caller = canonicalIp(ip);
  const family = net.isIP(caller);
  if (family === 0) return false;
  const list = new net.BlockList();
  for (const entry of allowlist) {
    if (!isAllowlistEntry(entry)) continue;
    const [address, bits] = entry.trim().split('/');
    const canonical = canonicalIp(address!);
    const type = net.isIP(canonical) === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(canonical, type);
    else list.addSubnet(canonical, Number(bits), type);
  }
  return list.check(caller, family === 4 ? 'ipv4' : 'ipv6');
}
