import { isIPv4, isIPv6 } from "node:net";

/**
 * The network an anonymous client is limited as: an IPv4 address on its own, an IPv6 address
 * by its /64. One IPv6 subscriber usually holds a whole /64 and can draw a fresh address for
 * every request, so counting /128s would let it walk around its per-source limit. IPv4 in
 * IPv6 (`::ffff:203.0.113.7`) counts as the IPv4 address; anything that is no address (no
 * peer in tests, a junk X-Forwarded-For entry) counts as itself.
 */
export function sourceNetwork(address: string): string {
  const bare = address.replace(/%.*$/, "").toLowerCase(); // a zone id (fe80::1%eth0) names no network
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (!isIPv6(bare)) return address;
  return `${groups(bare).slice(0, 4).join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, `::` expanded, without leading zeros. */
function groups(address: string): string[] {
  const [head = "", tail] = address.split("::");
  const part = (s: string) => (s ? s.split(":") : []);
  const written = [...part(head), ...(tail === undefined ? [] : part(tail))];
  const missing = tail === undefined ? [] : Array.from({ length: 8 - written.length }, () => "0");
  return [...part(head), ...missing, ...part(tail ?? "")].map((g) => g.replace(/^0+(?=.)/, ""));
}
