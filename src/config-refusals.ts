import { readFileSync } from "node:fs";
import { CORRIDOR_FIAT, CORRIDORS } from "./reference-data/corridors.js";
import { corridorsOnTheSandbox, PARTNERS } from "./providers/partners.js";
import type { Env } from "./config-schema.js";
import { settingsKey, type PartnerSettings } from "./config-partners.js";

/**
 * Why the service must not start with these settings, one entry per reason (none: it may start). Production refuses
 * unsafe settings, and `live` any corridor a partner does not serve.
 */
export function startupRefusals(e: Env, production: boolean, partners: PartnerSettings): string[] {
  const refusals: string[] = [];
  if (e.MARKET_RATES_MAX_AGE_MS < e.MARKET_RATES_REFRESH_MS)
    refusals.push("MARKET_RATES_MAX_AGE_MS must be at least MARKET_RATES_REFRESH_MS: rates would lapse before renewal");
  if (production) {
    const problems: string[] = [];
    if (!e.SMTP_URL) problems.push("SMTP_URL must be set: sign-in codes cannot be delivered otherwise");
    if (!e.JWT_SECRET)
      problems.push("JWT_SECRET must be set (32+ characters): generated secrets are for development only");
    if (!e.OPERATOR_TOKEN)
      problems.push("OPERATOR_TOKEN must be set (32+ characters): generated secrets are for development only");
    if (!e.SIGNING_KEY_ENCRYPTION_KEY && !e.SIGNING_PRIVATE_KEY) {
      problems.push(
        "SIGNING_KEY_ENCRYPTION_KEY (32+ characters) or SIGNING_PRIVATE_KEY must be set: the webhook signing key must survive restarts",
      );
    }
    if (!e.PUBLIC_BASE_URL)
      problems.push(
        "PUBLIC_BASE_URL must be set: upload URLs and onboarding links must name the address callers reach, not the one the server listens on",
      );
    if (!e.JWT_SECRET || !e.OPERATOR_TOKEN || (!e.SIGNING_KEY_ENCRYPTION_KEY && !e.SIGNING_PRIVATE_KEY))
      problems.push("(`npm run -s admin -- secrets generate` prints new values for the secrets, as .env lines)");
    if (e.AVENIA_BASE_URL?.startsWith("http:"))
      problems.push(
        "AVENIA_BASE_URL must be https://: the key Avenia's callbacks are verified with is fetched from it",
      );
    if (e.ALFREDPAY_BASE_URL?.startsWith("http:"))
      problems.push("ALFREDPAY_BASE_URL must be https://: the API key and secret are sent to it");
    if (problems.length) refusals.push(`Refusing to start in production:\n  ${problems.join("\n  ")}`);
  }
  // Whatever NODE_ENV says (CONTRACT.md): a live key's ramps and KYC go to partners, never to a simulator or the
  // sandbox.
  if (e.RAMP_ENVIRONMENT === "live") {
    const unready = partnersNotReadyForLive(partners);
    const onTheSandbox = corridorsOnTheSandbox(partners.corridors, partners.closedCorridors);
    const sections = [
      ...(unready.length ? [`these corridors' partners are not set up:\n    ${unready.join("\n    ")}`] : []),
      ...(onTheSandbox.length
        ? [
            `ramps in these corridors would run on the in-process sandbox (close them with CORRIDOR_PARTNERS, e.g. ` +
              `${onTheSandbox.map((corridor) => `${corridor}=none`).join(",")}):\n    ` +
              onTheSandbox
                .map((corridor) => `${corridor}: no partner for ${CORRIDOR_FIAT[corridor]} is integrated`)
                .join("\n    "),
          ]
        : []),
    ];
    if (sections.length) refusals.push(`Refusing to start with RAMP_ENVIRONMENT=live:\n  ${sections.join("\n  ")}`);
  }
  return refusals;
}

/** The settings each partner needs to serve a corridor, by the name the environment gives them. */
const REQUIRED_PARTNER_SETTINGS = {
  Avenia: { baseUrl: "AVENIA_BASE_URL", apiKey: "AVENIA_API_KEY", privateKeyPem: "AVENIA_PRIVATE_KEY" },
  Alfredpay: {
    baseUrl: "ALFREDPAY_BASE_URL",
    apiKey: "ALFREDPAY_API_KEY",
    apiSecret: "ALFREDPAY_API_SECRET",
    callbackSecret: "ALFREDPAY_CALLBACK_SECRET",
  },
} as const;

/**
 * One line per partner that serves a corridor but would not reach the real partner: it would be simulated, its base
 * URL is the embedded simulator's, or settings are missing (named).
 */
function partnersNotReadyForLive(partners: PartnerSettings): string[] {
  const simulatorUrl = lastEmbeddedSimulatorUrl(partners.simulator.stateFile);
  return PARTNERS.flatMap((partner) => {
    const corridors = CORRIDORS.filter((corridor) => partners.corridors[corridor] === partner);
    if (!corridors.length) return [];
    const settings: Record<string, string | undefined> = partners[settingsKey(partner)];
    const required = Object.entries(REQUIRED_PARTNER_SETTINGS[partner]);
    const missing = required.flatMap(([field, name]) => (settings[field] === undefined ? [name] : []));
    const served = `${corridors.join(", ")} (${partner})`;
    const baseUrl = settings.baseUrl;
    if (baseUrl === undefined && partners.simulator.mode === "embedded")
      return [`${served}: the embedded partner simulator would serve it; set ${missing.join(", ")}`];
    if (baseUrl !== undefined && simulatorUrl !== undefined && sameUrl(baseUrl, simulatorUrl))
      return [`${served}: ${REQUIRED_PARTNER_SETTINGS[partner].baseUrl} is the embedded partner simulator's URL`];
    return missing.length ? [`${served}: set ${missing.join(", ")}`] : [];
  });
}

/** The URL the embedded simulator last listened at under this DATA_DIR, if it ever ran there. */
function lastEmbeddedSimulatorUrl(stateFile: string): string | undefined {
  try {
    const { url } = JSON.parse(readFileSync(stateFile, "utf8")) as { url?: unknown };
    return typeof url === "string" ? url : undefined;
  } catch {
    return undefined;
  }
}

function sameUrl(a: string, b: string): boolean {
  return new URL(a).href === new URL(b).href;
}
