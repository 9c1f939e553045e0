import fc from "fast-check";
import { addressBytes, checkOutboundUrl, isLocalAddress, isLocalHostLiteral, isWhitelisted, parseWhitelistEntry, type Resolver } from "./url-guard";

const resolveTo = (...addresses: string[]): Resolver => async () => addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
const closed = { allowLocal: false, whitelist: [] };

describe("isLocalAddress", () => {
  test.each(["127.0.0.1", "127.1.2.3", "0.0.0.0", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "::1", "::", "fe80::1", "fd00::1", "fc00::2", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "::127.0.0.1", "[::1]", "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255", "ff02::1", "64:ff9b::a00:1", "64:ff9b::8.8.8.8", "64:ff9b:1::1", "2002:a00:1::1", "2002:0808:0808::1"])("%s is local", (ip) => {
    expect(isLocalAddress(ip)).toBe(true);
  });
  test.each(["8.8.8.8", "172.32.0.1", "192.169.0.1", "1.1.1.1", "2001:4860:4860::8888", "::ffff:8.8.8.8", "100.128.0.1", "223.255.255.255", "2001:db8::1", "2003::1"])("%s is public", (ip) => {
    expect(isLocalAddress(ip)).toBe(false);
  });

  test("an IPv4 address and its IPv4-mapped IPv6 forms always agree", () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        const [a, b, c, d] = ip.split(".").map(Number);
        const hex = `::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
        expect(isLocalAddress(`::ffff:${ip}`)).toBe(isLocalAddress(ip));
        expect(isLocalAddress(hex)).toBe(isLocalAddress(ip));
        expect(addressBytes(hex)).toEqual([a, b, c, d]);
      }),
    );
  });

  test("every address in 10.0.0.0/8, 127.0.0.0/8 and 192.168.0.0/16 is local", () => {
    fc.assert(
      fc.property(fc.constantFrom("10", "127", "192.168"), fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 3, maxLength: 3 }), (prefix, rest) => {
        const ip = [...prefix.split("."), ...rest].slice(0, 4).join(".");
        expect(isLocalAddress(ip)).toBe(true);
      }),
    );
  });

  test("IPv6 parsing agrees with the expanded form", () => {
    fc.assert(
      fc.property(fc.ipV6(), (ip) => {
        const bytes = addressBytes(ip);
        expect(bytes).not.toBeNull();
        expect([4, 16]).toContain(bytes!.length);
      }),
    );
  });
});

describe("whitelist entries", () => {
  test("IPs, CIDR ranges, bracketed IPv6 and host names, with optional ports", () => {
    expect(parseWhitelistEntry("10.0.0.0/8")).toMatchObject({ kind: "ip", bits: 8, port: null });
    expect(parseWhitelistEntry("127.0.0.1:8080")).toMatchObject({ kind: "ip", bits: 32, port: 8080 });
    expect(parseWhitelistEntry("[::1]:80")).toMatchObject({ kind: "ip", bits: 128, port: 80 });
    expect(parseWhitelistEntry("fd00::/8")).toMatchObject({ kind: "ip", bits: 8 });
    expect(parseWhitelistEntry("Example.com:443")).toEqual({ kind: "host", value: "example.com", bits: 0, port: 443 });
    expect(parseWhitelistEntry("not a host!")).toBeNull();
  });

  test("a port-bound entry matches that port only", () => {
    expect(isWhitelisted(["127.0.0.1:8080"], { address: "127.0.0.1", port: 8080 })).toBe(true);
    expect(isWhitelisted(["127.0.0.1:8080"], { address: "127.0.0.1", port: 8081 })).toBe(false);
    expect(isWhitelisted(["10.0.0.0/8"], { address: "::ffff:10.9.8.7", port: 1 })).toBe(true);
    expect(isWhitelisted(["intranet.local"], { host: "INTRANET.local", port: 80 })).toBe(true);
  });
});

describe("checkOutboundUrl", () => {
  test("refuses loopback and private targets by default, with GitLab's reasons", async () => {
    expect(await checkOutboundUrl("http://127.0.0.1:9000/hook", closed)).toEqual({ allowed: false, reason: "Requests to localhost are not allowed" });
    expect(await checkOutboundUrl("http://[::ffff:127.0.0.1]/", closed)).toEqual({ allowed: false, reason: "Requests to localhost are not allowed" });
    expect(await checkOutboundUrl("http://intranet/", closed, resolveTo("192.168.0.5"))).toEqual({ allowed: false, reason: "Requests to the local network are not allowed" });
    expect(await checkOutboundUrl("ftp://example.com/", closed)).toMatchObject({ allowed: false });
  });

  test("a name resolving to a public and a local address is refused (every answer counts)", async () => {
    expect(await checkOutboundUrl("https://mixed.example/", closed, resolveTo("93.184.216.34", "10.0.0.1"))).toMatchObject({ allowed: false });
  });

  test("allowed by the setting or by the whitelist; the checked address is returned", async () => {
    expect(await checkOutboundUrl("http://127.0.0.1:9000/", { allowLocal: true, whitelist: [] })).toEqual({ allowed: true, address: "127.0.0.1", family: 4 });
    expect(await checkOutboundUrl("http://127.0.0.1:9000/", { allowLocal: false, whitelist: ["127.0.0.0/8"] })).toMatchObject({ allowed: true });
    expect(await checkOutboundUrl("http://hooks.internal:9000/", { allowLocal: false, whitelist: ["hooks.internal:9000"] }, resolveTo("10.1.1.1"))).toEqual({ allowed: true, address: "10.1.1.1", family: 4 });
    expect(await checkOutboundUrl("https://discord.example/api", closed, resolveTo("93.184.216.34"))).toEqual({ allowed: true, address: "93.184.216.34", family: 4 });
  });

  test("an unresolvable host is refused", async () => {
    const failing: Resolver = async () => {
      throw new Error("ENOTFOUND");
    };
    expect(await checkOutboundUrl("http://nowhere.invalid/", closed, failing)).toEqual({ allowed: false, reason: "Host cannot be resolved or invalid" });
  });

  test("no public address is ever refused when local requests are not allowed", async () => {
    await fc.assert(
      fc.asyncProperty(fc.ipV4().filter((ip) => !isLocalAddress(ip)), async (ip) => {
        expect((await checkOutboundUrl(`http://${ip}/`, closed)).allowed).toBe(true);
      }),
    );
  });

  test("localhost names are local on their face", () => {
    expect(isLocalHostLiteral("localhost")).toBe(true);
    expect(isLocalHostLiteral("api.localhost")).toBe(true);
    expect(isLocalHostLiteral("[::1]")).toBe(true);
    expect(isLocalHostLiteral("example.com")).toBe(false);
  });
});
