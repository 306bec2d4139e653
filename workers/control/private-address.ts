/**
 * @module private-address
 * Whether a URL's host is this machine or a network behind it: loopback,
 * private, link-local, unspecified, shared (carrier-grade NAT), multicast or
 * reserved addresses, in IPv4 or IPv6 (IPv4-mapped, IPv4-compatible, NAT64
 * and 6to4 forms are judged by the IPv4 address they carry), and localhost
 * names. The WHATWG URL parser has already written every IPv4 form (`127.1`,
 * `0x7f.0.0.1`, `2130706433`, `0177.0.0.1`) in dotted decimal and every IPv6
 * address in compressed hex, so one reading of each covers them all.
 */

/** IPv4 ranges no participant's target may fall in: [first octets as a 32-bit prefix, prefix length, what it is]. */
const V4_RANGES: [number, number, string][] = [
  [0x00000000, 8, "an unspecified address (0.0.0.0/8)"],
  [0x0a000000, 8, "a private address (10.0.0.0/8)"],
  [0x64400000, 10, "a shared address (100.64.0.0/10)"],
  [0x7f000000, 8, "a loopback address (127.0.0.0/8)"],
  [0xa9fe0000, 16, "a link-local address (169.254.0.0/16)"],
  [0xac100000, 12, "a private address (172.16.0.0/12)"],
  [0xc0000000, 24, "a reserved address (192.0.0.0/24)"],
  [0xc0a80000, 16, "a private address (192.168.0.0/16)"],
  [0xc6120000, 15, "a benchmarking address (198.18.0.0/15)"],
  [0xe0000000, 4, "a multicast address (224.0.0.0/4)"],
  [0xf0000000, 4, "a reserved address (240.0.0.0/4)"],
];

function v4Reason(n: number): string | null {
  for (const [prefix, bits, what] of V4_RANGES) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((n & mask) >>> 0 === prefix) return what;
  }
  return null;
}

function parseV4(host: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const octets = m.slice(1).map(Number);
  if (octets.some((o) => o > 255)) return null;
  return ((octets[0] << 24) | (octets[1] << 16) | (octets[2] << 8) | octets[3]) >>> 0;
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (hex, `::` compression, no embedded dotted quad). */
function parseV6(host: string): number[] | null {
  if (!/^[0-9a-f:]+$/.test(host)) return null;
  const halves = host.split("::");
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === "" ? [] : s.split(":").map((g) => Number.parseInt(g, 16)));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const fill = 8 - head.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  const all = [...head, ...Array<number>(fill).fill(0), ...tail];
  return all.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff) ? null : all;
}

function v6Reason(g: number[]): string | null {
  const v4Of = (hi: number, lo: number) => ((hi << 16) | lo) >>> 0;
  const zeroes = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (g.every((x) => x === 0)) return "an unspecified address (::)";
  if (zeroes(7) && g[7] === 1) return "a loopback address (::1)";
  const carried = (form: string, v4: number) => {
    const reason = v4Reason(v4);
    return reason && `the ${form} form of ${reason}`;
  };
  if (zeroes(5) && g[5] === 0xffff) return carried("IPv4-mapped", v4Of(g[6], g[7]));
  if (zeroes(6)) return carried("IPv4-compatible", v4Of(g[6], g[7])) ?? "a deprecated IPv4-compatible address (::/96)";
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return carried("NAT64", v4Of(g[6], g[7]));
  if (g[0] === 0x2002) return carried("6to4", v4Of(g[1], g[2]));
  if ((g[0] & 0xfe00) === 0xfc00) return "a unique local address (fc00::/7)";
  if ((g[0] & 0xffc0) === 0xfe80) return "a link-local address (fe80::/10)";
  if ((g[0] & 0xffc0) === 0xfec0) return "a site-local address (fec0::/10)";
  if ((g[0] & 0xff00) === 0xff00) return "a multicast address (ff00::/8)";
  return null;
}

/** What makes a URL's host local or private, or null when it is a public address or an ordinary name. */
export function privateHostReason(url: URL): string | null {
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "a localhost name";
  if (host.startsWith("[") && host.endsWith("]")) {
    const groups = parseV6(host.slice(1, -1));
    return groups ? v6Reason(groups) : "an IPv6 address that cannot be read";
  }
  const v4 = parseV4(host);
  return v4 === null ? null : v4Reason(v4);
}
