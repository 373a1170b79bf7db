import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.js";
import {
  checkWebhookUrl,
  isAllowedTargetAddress,
  isPublicAddress,
  type HostResolver,
} from "../../src/webhooks/url-policy.js";

/** A resolver from a fixed table: no DNS. Unknown names fail as getaddrinfo does (ENOTFOUND). */
function resolverFrom(table: Record<string, string[] | NodeJS.ErrnoException>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const entry = table[hostname];
    if (entry instanceof Error) throw entry;
    if (!entry) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return entry.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

const dnsError = (code: string) => Object.assign(new Error(`getaddrinfo ${code}`), { code });

/** The outcome of a check: "ok", or the error's code and message. */
async function outcome(
  url: string,
  table: Record<string, string[] | NodeJS.ErrnoException> = {},
  allowPrivateNetworks: string[] = [],
) {
  try {
    await checkWebhookUrl(url, { resolve: resolverFrom(table), allowPrivateNetworks });
    return "ok";
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    expect(error.code).toBe("INVALID_WEBHOOK_URL");
    expect(error.status).toBe(400);
    return error.message;
  }
}

describe("isPublicAddress: IPv4", () => {
  it.each([
    ["93.184.215.14", true],
    ["8.8.8.8", true],
    ["1.1.1.1", true],
    ["100.63.255.255", true], // just below CGNAT
    ["100.128.0.0", true], // just above CGNAT
    ["172.15.255.255", true],
    ["172.32.0.0", true],
    ["223.255.255.254", true],
    ["0.0.0.0", false], // unspecified
    ["0.1.2.3", false], // "this network"
    ["10.0.0.1", false], // private
    ["10.255.255.255", false],
    ["172.16.0.1", false],
    ["172.31.255.255", false],
    ["192.168.1.1", false],
    ["127.0.0.1", false], // loopback
    ["127.255.255.254", false],
    ["169.254.169.254", false], // link-local (cloud metadata)
    ["100.64.0.1", false], // CGNAT
    ["100.127.255.255", false],
    ["224.0.0.1", false], // multicast
    ["239.255.255.250", false],
    ["255.255.255.255", false], // broadcast
    ["240.0.0.1", false], // reserved
    ["192.0.0.8", false], // IETF protocol assignments
    ["192.0.2.10", false], // documentation TEST-NET-1
    ["198.51.100.10", false], // TEST-NET-2
    ["203.0.113.10", false], // TEST-NET-3
    ["198.18.0.1", false], // benchmarking
    ["198.19.255.255", false],
    ["192.88.99.1", false], // 6to4 relay anycast (deprecated)
  ])("%s -> %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe("isPublicAddress: IPv6 and IPv6 forms carrying IPv4", () => {
  it.each([
    ["2606:4700:4700::1111", true],
    ["2a00:1450:4001:82a::200e", true],
    ["::", false], // unspecified
    ["::1", false], // loopback
    ["fe80::1", false], // link-local
    ["fe80::1%eth0", false], // link-local with a zone
    ["fc00::1", false], // unique local
    ["fd12:3456:789a::1", false],
    ["fec0::1", false], // deprecated site-local
    ["ff02::1", false], // multicast
    ["ff0e::1", false],
    ["2001:db8::1", false], // documentation
    ["3fff::1", false], // documentation (RFC 9637)
    ["2001:2::1", false], // benchmarking
    ["100::1", false], // discard-only
    ["5f00::1", false], // segment routing
    ["4000::1", false], // outside global unicast 2000::/3
    // IPv4-mapped: judged by the embedded IPv4 address.
    ["::ffff:93.184.215.14", true],
    ["::ffff:127.0.0.1", false],
    ["::ffff:10.0.0.1", false],
    ["::ffff:169.254.169.254", false],
    ["::ffff:7f00:1", false], // the same, in hex
    ["::ffff:5db8:d70e", true], // 93.184.215.14 in hex
    ["::ffff:0:127.0.0.1", false], // RFC 6145 translated form
    ["::ffff:0:93.184.215.14", true],
    // IPv4-compatible (deprecated, never routed): refused even with a public IPv4 inside.
    ["::127.0.0.1", false],
    ["::10.0.0.1", false],
    ["::93.184.215.14", false],
    ["::5db8:d70e", false], // the same, in hex
    // NAT64, well-known prefix: the embedded IPv4 address decides.
    ["64:ff9b::93.184.215.14", true],
    ["64:ff9b::127.0.0.1", false],
    ["64:ff9b::a00:1", false], // 10.0.0.1
    ["64:ff9b::192.168.0.1", false],
    // NAT64 local-use prefix (RFC 8215): refused whatever it embeds.
    ["64:ff9b:1::93.184.215.14", false],
    ["64:ff9b:1::127.0.0.1", false],
    // 6to4: the embedded IPv4 address decides.
    ["2002:5db8:d70e::1", true], // 93.184.215.14
    ["2002:7f00:1::1", false], // 127.0.0.1
    ["2002:a00:1::1", false], // 10.0.0.1
    ["2002:c0a8:101::1", false], // 192.168.1.1
    ["2002:a9fe:a9fe::1", false], // 169.254.169.254
    // Teredo: server and (obfuscated) client addresses must both be public.
    ["2001:0:4136:e378:8000:63bf:a247:28f1", true], // server 65.54.227.120, client 93.184.215.14 (xor ffff)
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", false], // client 127.0.0.1
    ["2001:0:4136:e378:8000:63bf:f5ff:fffe", false], // client 10.0.0.1
    ["2001:0:a00:1:8000:63bf:a247:28f1", false], // server 10.0.0.1
  ])("%s -> %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it("anything that is not an IP address is not public", () => {
    for (const value of [
      "",
      "example.com",
      "999.1.1.1",
      "127.1",
      "0x7f.0.0.1",
      "[::1]",
      "::1]/x",
      "1.2.3.4/8",
      "::ffff:1.2.3",
      "1:2:3",
    ])
      expect(isPublicAddress(value)).toBe(false);
  });
});

describe("isAllowedTargetAddress: the operator's private ranges", () => {
  it("lets listed ranges through and nothing else", () => {
    const allowed = ["10.0.0.0/8", "fd00::/8"];
    expect(isAllowedTargetAddress("10.1.2.3", allowed)).toBe(true);
    expect(isAllowedTargetAddress("::ffff:10.1.2.3", allowed)).toBe(true);
    expect(isAllowedTargetAddress("fd00::5", allowed)).toBe(true);
    expect(isAllowedTargetAddress("127.0.0.1", allowed)).toBe(false);
    expect(isAllowedTargetAddress("192.168.0.1", allowed)).toBe(false);
    expect(isAllowedTargetAddress("fc00::5", allowed)).toBe(false);
    expect(isAllowedTargetAddress("93.184.215.14", allowed)).toBe(true);
    expect(isAllowedTargetAddress("10.1.2.3", [])).toBe(false);
  });
});

describe("checkWebhookUrl", () => {
  const table = {
    "hooks.example.com": ["93.184.215.14", "2606:4700:4700::1111"],
    "mixed.example.com": ["93.184.215.14", "10.0.0.7"],
    "mixed6.example.com": ["2606:4700:4700::1111", "::1"],
    "internal.example.com": ["10.1.2.3"],
    "mapped.example.com": ["::ffff:127.0.0.1"],
    "metadata.example.com": ["169.254.169.254"],
    "pending.example.com": dnsError("EAI_AGAIN"),
    "nodata.example.com": dnsError("ENODATA"),
    "broken.example.com": dnsError("EAI_FAIL"),
  };

  it.each([
    ["https://hooks.example.com/webhook", "ok"],
    ["https://hooks.example.com:8443/webhook?x=1#frag", "ok"],
    ["https://hooks.example.com./webhook", "ok"], // trailing dot
    ["https://93.184.215.14/hook", "ok"],
    ["https://[2606:4700:4700::1111]/hook", "ok"],
    ["https://[::ffff:93.184.215.14]/hook", "ok"],
    ["https://unknown.example.com/hook", "ok"], // does not resolve yet
    ["https://pending.example.com/hook", "ok"], // EAI_AGAIN
    ["https://nodata.example.com/hook", "ok"], // ENODATA
  ])("accepts %s", async (url, expected) => {
    expect(await outcome(url, table)).toBe(expected);
  });

  it.each([
    ["http://hooks.example.com/webhook", /only https/],
    ["ftp://hooks.example.com/webhook", /only https/],
    ["wss://hooks.example.com/webhook", /only https/],
    ["hooks.example.com/webhook", /not an absolute URL/],
    ["", /not an absolute URL/],
    ["https://", /not an absolute URL/],
    ["https://user:secret@hooks.example.com/webhook", /credentials/],
    ["https://user@hooks.example.com/webhook", /credentials/],
    ["https://:secret@hooks.example.com/webhook", /credentials/],
    [`https://hooks.example.com/${"a".repeat(2048)}`, /longer than 2048/],
    ["https://127.0.0.1/hook", /127\.0\.0\.1 is not a publicly routable address/],
    ["https://2130706433/hook", /127\.0\.0\.1/], // decimal IPv4, normalized by the URL parser
    ["https://0x7f.1/hook", /127\.0\.0\.1/],
    ["https://10.0.0.1/hook", /not a publicly routable/],
    ["https://192.168.1.10/hook", /not a publicly routable/],
    ["https://169.254.169.254/latest/meta-data", /not a publicly routable/],
    ["https://100.64.1.1/hook", /not a publicly routable/],
    ["https://203.0.113.10/hook", /not a publicly routable/],
    ["https://0.0.0.0/hook", /not a publicly routable/],
    ["https://[::1]/hook", /::1 is not a publicly routable/],
    ["https://[::]/hook", /not a publicly routable/],
    ["https://[fe80::1]/hook", /not a publicly routable/],
    ["https://[fd00::1]/hook", /not a publicly routable/],
    ["https://[::ffff:127.0.0.1]/hook", /not a publicly routable/],
    ["https://[::ffff:10.0.0.1]/hook", /not a publicly routable/],
    ["https://[64:ff9b::127.0.0.1]/hook", /not a publicly routable/],
    ["https://[64:ff9b::10.0.0.1]/hook", /not a publicly routable/],
    ["https://[2002:7f00:1::1]/hook", /not a publicly routable/],
    ["https://[::127.0.0.1]/hook", /not a publicly routable/],
    ["https://localhost/hook", /local host name/],
    ["https://LOCALHOST./hook", /local host name/],
    ["https://api.localhost/hook", /local host name/],
    ["https://mixed.example.com/hook", /resolves to 10\.0\.0\.7/], // one public, one private address
    ["https://mixed6.example.com/hook", /resolves to ::1/],
    ["https://internal.example.com/hook", /resolves to 10\.1\.2\.3/],
    ["https://mapped.example.com/hook", /resolves to ::ffff:127\.0\.0\.1/],
    ["https://metadata.example.com/hook", /resolves to 169\.254\.169\.254/],
    ["https://broken.example.com/hook", /could not be checked \(EAI_FAIL\)/],
  ])("refuses %s", async (url, reason) => {
    expect(await outcome(url, table)).toMatch(reason);
  });

  it("resolves names only, never IP literals", async () => {
    const resolve = resolverFrom(table);
    await checkWebhookUrl("https://93.184.215.14/hook", { resolve, allowPrivateNetworks: [] });
    await checkWebhookUrl("https://[2606:4700:4700::1111]/hook", { resolve, allowPrivateNetworks: [] });
    await checkWebhookUrl("https://hooks.example.com/hook", { resolve, allowPrivateNetworks: [] });
    expect(resolve.asked).toEqual(["hooks.example.com"]);
  });

  it("allowPrivateNetworks lets its ranges through (literals and resolved names), not others", async () => {
    const allowed = ["10.0.0.0/8"];
    expect(await outcome("https://10.1.2.3/hook", table, allowed)).toBe("ok");
    expect(await outcome("https://internal.example.com/hook", table, allowed)).toBe("ok");
    expect(await outcome("https://mixed.example.com/hook", table, allowed)).toBe("ok");
    expect(await outcome("https://127.0.0.1/hook", table, allowed)).toMatch(/not a publicly routable/);
    expect(await outcome("https://192.168.0.1/hook", table, allowed)).toMatch(/not a publicly routable/);
    expect(await outcome("https://mapped.example.com/hook", table, allowed)).toMatch(/resolves to/);
    // The operator setting does not relax the other rules.
    expect(await outcome("http://10.1.2.3/hook", table, allowed)).toMatch(/only https/);
    expect(await outcome("https://u:p@10.1.2.3/hook", table, allowed)).toMatch(/credentials/);
  });

  it("a resolver that does not answer in time counts as not resolving yet", async () => {
    const never: HostResolver = () => new Promise(() => {});
    await expect(
      checkWebhookUrl("https://slow.example.com/hook", {
        resolve: never,
        allowPrivateNetworks: [],
        resolveTimeoutMs: 20,
      }),
    ).resolves.toBeUndefined();
  });
});
