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

/** An allow-list made ready to check: its exact addresses, and a BlockList for the rest (ranges, IPv6 spellings). */
interface CheckedList {
  exact: Set<string>;
  list: net.BlockList;
}

/**
 * Lists made ready, by their entries: every v1 call checks its account's list, and building a
 * BlockList each time (a native object per entry) cost about 2 % of a one-message send (profiled).
 * Bounded: a list edited many times leaves old keys behind.
 */
const checkedLists = new Map<string, CheckedList>();
const MAX_CHECKED_LISTS = 256;

function checkedList(allowlist: readonly string[]): CheckedList {
  const key = allowlist.join('\n');
  let checked = checkedLists.get(key);
  if (checked !== undefined) return checked;
  checked = { exact: new Set(), list: new net.BlockList() };
  for (const entry of allowlist) {
    if (!isAllowlistEntry(entry)) continue;
    const [address, bits] = entry.trim().split('/');
    const canonical = canonicalIp(address!);
    const type = net.isIP(canonical) === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) {
      checked.exact.add(canonical);
      checked.list.addAddress(canonical, type);
    } else checked.list.addSubnet(canonical, Number(bits), type);
  }
  if (checkedLists.size >= MAX_CHECKED_LISTS) checkedLists.clear();
  checkedLists.set(key, checked);
  return checked;
}

export function ipAllowed(allowlist: readonly string[], ip: string | undefined): boolean {
  if (!ip) return false;
  const caller = canonicalIp(ip);
  const family = net.isIP(caller);
  if (family === 0) return false;
  const { exact, list } = checkedList(allowlist);
  // The caller as listed (the usual case) needs no BlockList; other spellings and ranges do.
  return exact.has(caller) || list.check(caller, family === 4 ? 'ipv4' : 'ipv6');
}
