import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

/**
 * Outbound request guard for integrations and webhooks (GitLab's Gitlab::UrlBlocker): a URL whose
 * host is, or resolves to, a loopback, private, link-local, shared or unspecified address is refused
 * unless the application settings allow local requests (allow_local_requests_from_web_hooks_and_services)
 * or the address / host name is on outbound_local_requests_whitelist. Callers connect to the address
 * this returns (not a second lookup), so a DNS answer cannot change between check and connect.
 */

export interface OutboundPolicy {
  allowLocal: boolean;
  /** Entries as GitLab stores them: IPs, CIDR ranges, host names, each with an optional port. */
  whitelist: readonly string[];
}

export type OutboundVerdict = { allowed: true; address: string; family: 4 | 6 } | { allowed: false; reason: string };

/** The policy from an application settings snapshot. */
export function outboundPolicy(settings: Record<string, unknown>): OutboundPolicy {
  const list = settings.outbound_local_requests_whitelist;
  return {
    allowLocal: settings.allow_local_requests_from_web_hooks_and_services === true,
    whitelist: Array.isArray(list) ? list.filter((e): e is string => typeof e === "string") : [],
  };
}

type Bytes = number[];

function ipv4Bytes(text: string): Bytes | null {
  if (isIP(text) !== 4) return null;
  return text.split(".").map(Number);
}

/** 16 bytes of an IPv6 address (zone id dropped), or null. */
function ipv6Bytes(text: string): Bytes | null {
  const addr = text.replace(/%.*$/, "");
  if (isIP(addr) !== 6) return null;
  let head = addr;
  let tail: Bytes = [];
  const dotted = addr.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    head = dotted[1].endsWith("::") ? dotted[1] : dotted[1].slice(0, -1);
    tail = ipv4Bytes(dotted[2])!;
  }
  const [left, right] = head.includes("::") ? head.split("::") : [head, undefined];
  const words = (s: string | undefined) => (s ? s.split(":").filter(Boolean).map((w) => parseInt(w, 16)) : []);
  const l = words(left);
  const r = words(right);
  const missing = 8 - tail.length / 2 - l.length - r.length;
  const all = right === undefined ? l : [...l, ...Array<number>(missing).fill(0), ...r];
  return [...all.flatMap((w) => [w >> 8, w & 0xff]), ...tail];
}

/** An address as bytes, IPv4-mapped and IPv4-compatible IPv6 forms folded to their IPv4 address. */
export function addressBytes(text: string): Bytes | null {
  const host = text.replace(/^\[|\]$/g, "");
  const v4 = ipv4Bytes(host);
  if (v4) return v4;
  const v6 = ipv6Bytes(host);
  if (!v6) return null;
  const zeros = v6.slice(0, 10).every((b) => b === 0);
  if (zeros && v6[10] === 0xff && v6[11] === 0xff) return v6.slice(12);
  // ::a.b.c.d (deprecated IPv4-compatible), but not :: and ::1 themselves.
  if (zeros && v6[10] === 0 && v6[11] === 0 && v6.slice(12, 15).some((b) => b !== 0)) return v6.slice(12);
  return v6;
}

function inPrefix(addr: Bytes, net: Bytes, bits: number): boolean {
  if (addr.length !== net.length) return false;
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((addr[i / 8] & mask) !== (net[i / 8] & mask)) return false;
  }
  return true;
}

/**
 * CIDR ranges refused without permission: unspecified, loopback, private, shared, link-local,
 * multicast and reserved (broadcast included); in IPv6 also multicast and the prefixes that carry
 * an IPv4 address to a translator (NAT64, 6to4), which could reach any IPv4 host, a local one too.
 */
const LOCAL_RANGES: [string, number][] = [
  ["0.0.0.0", 8],
  ["127.0.0.0", 8],
  ["10.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["100.64.0.0", 10],
  ["169.254.0.0", 16],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
  ["::", 128],
  ["::1", 128],
  ["fe80::", 10],
  ["fec0::", 10],
  ["fc00::", 7],
  ["ff00::", 8],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["2002::", 16],
];
const LOCAL_NETS = LOCAL_RANGES.map(([net, bits]) => [addressBytes(net)!, bits] as const);

/**
 * A matcher of addresses against IPs and CIDR ranges (`10.0.0.0/8`, `fd00::/8`, `127.0.0.1`);
 * IPv4-mapped IPv6 forms match their IPv4 entry. Throws on an entry that is neither.
 */
export function addressMatcher(entries: readonly string[]): (address: string) => boolean {
  const nets = entries.map((raw) => {
    const entry = raw.trim();
    const cidr = entry.match(/^([^/]+)\/(\d{1,3})$/);
    const net = addressBytes(cidr ? cidr[1] : entry);
    const bits = cidr ? Number(cidr[2]) : (net?.length ?? 0) * 8;
    if (!net || bits > net.length * 8) throw new Error(`${raw} is no IP address or CIDR range`);
    return [net, bits] as const;
  });
  return (address) => {
    const addr = addressBytes(address);
    return addr !== null && nets.some(([net, bits]) => inPrefix(addr, net, bits));
  };
}

/** True for an address a request from the server must not reach without permission. */
export function isLocalAddress(text: string): boolean {
  const addr = addressBytes(text);
  if (!addr) return false;
  return LOCAL_NETS.some(([net, bits]) => inPrefix(addr, net, bits));
}

interface WhitelistEntry {
  kind: "ip" | "host";
  value: Bytes | string;
  bits: number;
  port: number | null;
}

/** One whitelist entry: `10.0.0.0/8`, `127.0.0.1:8080`, `[::1]:80`, `::1`, `example.com:443`. */
export function parseWhitelistEntry(raw: string): WhitelistEntry | null {
  const entry = raw.trim().toLowerCase();
  if (!entry) return null;
  const cidr = entry.match(/^([^/]+)\/(\d{1,3})$/);
  if (cidr) {
    const net = addressBytes(cidr[1]);
    const bits = Number(cidr[2]);
    return net && bits <= net.length * 8 ? { kind: "ip", value: net, bits, port: null } : null;
  }
  const bracketed = entry.match(/^\[([^\]]+)\](?::(\d{1,5}))?$/);
  if (bracketed) {
    const ip = addressBytes(bracketed[1]);
    return ip ? { kind: "ip", value: ip, bits: ip.length * 8, port: bracketed[2] ? Number(bracketed[2]) : null } : null;
  }
  const bare = addressBytes(entry);
  if (bare) return { kind: "ip", value: bare, bits: bare.length * 8, port: null };
  const withPort = entry.match(/^([^:]+):(\d{1,5})$/);
  const host = withPort ? withPort[1] : entry;
  const port = withPort ? Number(withPort[2]) : null;
  const ip = addressBytes(host);
  if (ip) return { kind: "ip", value: ip, bits: ip.length * 8, port };
  return /^[a-z0-9.-]+$/.test(host) ? { kind: "host", value: host.replace(/\.$/, ""), bits: 0, port } : null;
}

const portMatches = (e: WhitelistEntry, port: number) => e.port === null || e.port === port;

/** Whether the whitelist lets this host name or address through on this port. */
export function isWhitelisted(whitelist: readonly string[], target: { host?: string; address?: string; port: number }): boolean {
  const host = target.host?.toLowerCase().replace(/\.$/, "");
  const addr = target.address ? addressBytes(target.address) : null;
  return whitelist.some((raw) => {
    const e = parseWhitelistEntry(raw);
    if (!e || !portMatches(e, target.port)) return false;
    if (e.kind === "host") return host === e.value;
    return addr !== null && inPrefix(addr, e.value as Bytes, e.bits);
  });
}

const defaultPort = (url: URL) => (url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80);
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/** Whether a host written in a URL is local on its face (no DNS): what a settings form refuses. */
export function isLocalHostLiteral(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  return h === "localhost" || h.endsWith(".localhost") || isLocalAddress(h);
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;
const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/**
 * Decides whether an outgoing request to `raw` may go out, resolving the host. Every resolved
 * address must be acceptable (an attacker-controlled name could mix a public and a local answer).
 */
export async function checkOutboundUrl(raw: string, policy: OutboundPolicy, resolve: Resolver = systemResolver): Promise<OutboundVerdict> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { allowed: false, reason: "Only allowed schemes are http, https" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { allowed: false, reason: "Only allowed schemes are http, https" };
  const host = hostOf(url);
  const port = defaultPort(url);
  let answers: { address: string; family: number }[];
  if (isIP(host)) answers = [{ address: host, family: isIP(host) }];
  else {
    try {
      answers = await resolve(host);
    } catch {
      return { allowed: false, reason: "Host cannot be resolved or invalid" };
    }
  }
  if (!answers.length) return { allowed: false, reason: "Host cannot be resolved or invalid" };
  const hostListed = isWhitelisted(policy.whitelist, { host, port });
  for (const a of answers) {
    if (policy.allowLocal || hostListed || !isLocalAddress(a.address)) continue;
    if (isWhitelisted(policy.whitelist, { address: a.address, port })) continue;
    const loopback = isLocalAddress(a.address) && ["127.0.0.0/8", "::1/128", "0.0.0.0/8", "::/128"].some((c) => isWhitelisted([c], { address: a.address, port }));
    return { allowed: false, reason: loopback ? "Requests to localhost are not allowed" : "Requests to the local network are not allowed" };
  }
  const first = answers[0];
  return { allowed: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}
