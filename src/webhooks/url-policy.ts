import { promises as dns } from "node:dns";
import ipaddr from "ipaddr.js";
import { AppError } from "../errors.js";

/**
 * Which webhook targets are allowed (CONTRACT.md, Webhooks): HTTPS, no embedded credentials, and every
 * address the host resolves to publicly routable, unless an operator listed its range in
 * WEBHOOK_ALLOW_PRIVATE_NETWORKS. Framework-free; registration checks a URL here, and the delivery
 * worker checks the address it is about to connect to with the same functions.
 */

/** One resolved address, as `dns.promises.lookup(host, { all: true })` answers. */
export interface ResolvedAddress {
  address: string;
  family: number;
}
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** Node's resolver (getaddrinfo: hosts file and DNS), every address in the order the system gives them. */
export const systemResolver: HostResolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

export interface UrlPolicyOptions {
  resolve: HostResolver;
  /** CIDR ranges an operator allows although they are not public (on-premise receivers). */
  allowPrivateNetworks: readonly string[];
  /** How long resolution may take before the name counts as "does not resolve yet" (default 5 s). */
  resolveTimeoutMs?: number;
}

const MAX_WEBHOOK_URL_LENGTH = 2048;
const DEFAULT_RESOLVE_TIMEOUT_MS = 5_000;
/** Resolver answers meaning the name does not resolve (yet): accepted, and checked again at each delivery. */
const NOT_RESOLVING = new Set(["ENOTFOUND", "EAI_AGAIN", "ENODATA", "EAI_NODATA", "ETIMEOUT"]);

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The IPv4 address in the low 32 bits of an IPv6 address. */
const low32 = (address: ipaddr.IPv6) => {
  const bytes = address.toByteArray();
  return new ipaddr.IPv4(bytes.slice(12, 16));
};

/** IANA's global unicast space (2000::/3): nothing outside it is publicly routable today. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");

/**
 * True when the address is publicly routable: ipaddr.js's `range()` is "unicast" (not private, loopback,
 * link-local, CGNAT, multicast, broadcast, unspecified, reserved, benchmarking, documentation, ...).
 * IPv6 forms that carry an IPv4 address are judged by that address:
 * - IPv4-mapped `::ffff:a.b.c.d` and the RFC 6145 translated form `::ffff:0:a.b.c.d`;
 * - NAT64 with the well-known prefix `64:ff9b::/96`;
 * - 6to4 `2002:AABB:CCDD::/48` (the embedded address is the relay's target);
 * - Teredo `2001:0::/32` (both the server and the client's obfuscated address must be public).
 * Refused outright, since their embedded address cannot be located or they are never globally routed:
 * the local-use NAT64 prefix `64:ff9b:1::/48` (RFC 8215; operator-chosen prefix length), the deprecated
 * IPv4-compatible `::a.b.c.d` (all of `::/96`), and anything outside `2000::/3`.
 * Anything that is not an IP address is not public.
 */
export function isPublicAddress(address: string): boolean {
  const parsed = parseAddress(address);
  return parsed !== undefined && isPublic(parsed);
}

/**
 * An IP address in canonical form: IPv4 only as four decimal parts; IPv6 first serialized by the WHATWG
 * URL parser, which writes any dotted IPv4 tail in hex (ipaddr.js alone reads the IPv4-compatible
 * `::93.184.215.14` as the IPv4-mapped `::ffff:5db8:d70e`). A zone (`%eth0`) is dropped.
 */
function parseAddress(address: string): Address | undefined {
  const text = address.replace(/%.*$/, "");
  try {
    if (!text.includes(":")) return ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.IPv4.parse(text) : undefined;
    if (/[[\]/?#@]/.test(text)) return undefined;
    return ipaddr.IPv6.parse(new URL(`http://[${text}]/`).hostname.slice(1, -1));
  } catch {
    return undefined;
  }
}

function isPublic(address: Address): boolean {
  if (address.kind() === "ipv4") return address.range() === "unicast";
  const v6 = address as ipaddr.IPv6;
  const parts = v6.parts;
  switch (v6.range()) {
    case "ipv4Mapped":
    case "rfc6145":
      return isPublic(low32(v6));
    case "rfc6052":
      // 64:ff9b::/96 embeds the IPv4 address in the low 32 bits; 64:ff9b:1::/48 is local-use only.
      return (
        parts[2] === 0 &&
        parts[3] === 0 &&
        parts[4] === 0 &&
        parts[5] === 0 &&
        parts[1] === 0xff9b &&
        isPublic(low32(v6))
      );
    case "6to4":
      return isPublic(new ipaddr.IPv4([parts[1]! >> 8, parts[1]! & 0xff, parts[2]! >> 8, parts[2]! & 0xff]));
    case "teredo": {
      const server = new ipaddr.IPv4([parts[2]! >> 8, parts[2]! & 0xff, parts[3]! >> 8, parts[3]! & 0xff]);
      const client = new ipaddr.IPv4([
        (~parts[6]! >> 8) & 0xff,
        ~parts[6]! & 0xff,
        (~parts[7]! >> 8) & 0xff,
        ~parts[7]! & 0xff,
      ]);
      return isPublic(server) && isPublic(client);
    }
    case "unicast":
      return v6.match(GLOBAL_UNICAST_V6);
    default:
      return false;
  }
}

/**
 * True when the address may be a webhook target: public, or inside one of the operator's allowed ranges.
 * An IPv4-mapped IPv6 address matches the IPv4 ranges too (it is the same host).
 */
export function isAllowedTargetAddress(address: string, allowPrivateNetworks: readonly string[]): boolean {
  if (isPublicAddress(address)) return true;
  const parsed = parseAddress(address);
  if (!parsed) return false;
  const candidates: Address[] = [parsed];
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    candidates.push((parsed as ipaddr.IPv6).toIPv4Address());
  return allowPrivateNetworks.some((cidr) => {
    const [network, bits] = parsedRange(cidr);
    return candidates.some((candidate) => candidate.kind() === network.kind() && candidate.match(network, bits));
  });
}

/** Allowed ranges come from configuration: each is parsed once, not at every send. */
const parsedRanges = new Map<string, [Address, number]>();
function parsedRange(cidr: string): [Address, number] {
  let range = parsedRanges.get(cidr);
  if (!range) parsedRanges.set(cidr, (range = ipaddr.parseCIDR(cidr)));
  return range;
}

const refuse = (why: string) => new AppError("INVALID_WEBHOOK_URL", `The webhook URL is not allowed: ${why}.`);

/** The URL's host as an IP literal, or undefined for a name. WHATWG URL has already normalized IPv4 forms. */
export function ipLiteral(hostname: string): string | undefined {
  if (hostname.startsWith("[") && hostname.endsWith("]")) return hostname.slice(1, -1);
  return ipaddr.IPv4.isValidFourPartDecimal(hostname) ? hostname : undefined;
}

/**
 * Checks a webhook URL; throws INVALID_WEBHOOK_URL saying why. A name is resolved and every address
 * must be allowed; a name that does not resolve yet (or not within the timeout) is accepted, since each
 * delivery resolves and checks it again.
 */
export async function checkWebhookUrl(url: string, options: UrlPolicyOptions): Promise<void> {
  if (url.length > MAX_WEBHOOK_URL_LENGTH) throw refuse(`longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse("not an absolute URL");
  }
  if (parsed.protocol !== "https:") throw refuse("only https URLs are accepted");
  if (parsed.username !== "" || parsed.password !== "") throw refuse("it must not embed credentials");
  const hostname = parsed.hostname;
  if (hostname === "") throw refuse("it has no host");

  const literal = ipLiteral(hostname);
  if (literal !== undefined) {
    if (!isAllowedTargetAddress(literal, options.allowPrivateNetworks))
      throw refuse(`${literal} is not a publicly routable address`);
    return;
  }
  const name = hostname.replace(/\.$/, "");
  // RFC 6761: localhost names always mean the local host, whatever a resolver says.
  if (name === "localhost" || name.endsWith(".localhost")) throw refuse(`${hostname} is a local host name`);

  const addresses = await resolveWithin(options.resolve, name, options.resolveTimeoutMs ?? DEFAULT_RESOLVE_TIMEOUT_MS);
  for (const { address } of addresses) {
    if (!isAllowedTargetAddress(address, options.allowPrivateNetworks))
      throw refuse(`${hostname} resolves to ${address}, which is not publicly routable`);
  }
}

/** The name's addresses; none when it does not resolve (yet). Other resolver failures refuse the URL. */
async function resolveWithin(resolve: HostResolver, name: string, timeoutMs: number): Promise<ResolvedAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ResolvedAddress[]>((done) => {
    timer = setTimeout(() => done([]), timeoutMs);
  });
  try {
    return await Promise.race([resolve(name), timeout]);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code && NOT_RESOLVING.has(code)) return [];
    throw refuse(`its host name could not be checked (${code ?? "resolver error"})`);
  } finally {
    clearTimeout(timer);
  }
}
