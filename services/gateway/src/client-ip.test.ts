import type { IncomingMessage } from "node:http";
import { clientIpResolver } from "./rate-limits";

const req = (peer: string, forwarded?: string | string[]) => ({ socket: { remoteAddress: peer }, headers: forwarded === undefined ? {} : { "x-forwarded-for": forwarded } }) as unknown as IncomingMessage;

describe("clientIpResolver", () => {
  test("without trusted proxies the peer is the client, whatever X-Forwarded-For says", () => {
    const ip = clientIpResolver([]);
    expect(ip(req("203.0.113.9", "1.2.3.4"))).toBe("203.0.113.9");
    expect(ip(req("::ffff:203.0.113.9"))).toBe("203.0.113.9");
  });

  test("from an untrusted peer a forged header is ignored", () => {
    const ip = clientIpResolver(["10.0.0.0/8"]);
    expect(ip(req("198.51.100.7", "10.1.1.1"))).toBe("198.51.100.7");
  });

  test("behind trusted proxies: the rightmost address none of them vouches for", () => {
    const ip = clientIpResolver(["10.0.0.0/8", "fd00::/8"]);
    expect(ip(req("10.0.0.2", "198.51.100.7"))).toBe("198.51.100.7");
    // A client sending its own forged X-Forwarded-For: the proxy appends the real address.
    expect(ip(req("10.0.0.2", "1.2.3.4, 198.51.100.7"))).toBe("198.51.100.7");
    expect(ip(req("10.0.0.2", ["1.2.3.4", "198.51.100.7, 10.0.0.9"]))).toBe("198.51.100.7");
    expect(ip(req("::ffff:10.0.0.2", "[2001:db8::5]:4711"))).toBe("2001:db8::5");
    expect(ip(req("fd00::1", "10.0.0.3, 10.0.0.4"))).toBe("10.0.0.3"); // all trusted: the leftmost
    expect(ip(req("10.0.0.2"))).toBe("10.0.0.2"); // no header
    expect(ip(req("10.0.0.2", "not-an-ip, 198.51.100.7"))).toBe("198.51.100.7");
    expect(ip(req("10.0.0.2", "198.51.100.7, garbage"))).toBe("10.0.0.2"); // what the proxy added is unreadable
  });

  test("an entry that is no address or range is refused", () => {
    expect(() => clientIpResolver(["10.0.0.0/33"])).toThrow();
    expect(() => clientIpResolver(["example.com"])).toThrow();
  });
});
