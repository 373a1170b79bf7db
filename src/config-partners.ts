import { join } from "node:path";
import type { Partner } from "./providers/partners.js";
import { SIMULATOR_TIMINGS, type Env } from "./config-schema.js";

/** Each partner's settings, which partner serves each corridor, and the embedded simulator. */
export type PartnerSettings = ReturnType<typeof partnerSettings>;

/** The partners' part of the configuration (`config.partners`), from the parsed environment. */
export function partnerSettings(e: Env, production: boolean, dataDir: string) {
  return {
    /** Which partner serves each corridor; null: none (EU's ramps then run on the sandbox, unless closed). */
    corridors: e.CORRIDOR_PARTNERS.corridors,
    /** The corridors `none` closes: nothing is quoted, registered or onboarded in them. */
    closedCorridors: e.CORRIDOR_PARTNERS.closed,
    /** Avenia's API; `GET /v2/public-key` there serves the key its callbacks are signed with. */
    avenia: { baseUrl: e.AVENIA_BASE_URL, apiKey: e.AVENIA_API_KEY, privateKeyPem: e.AVENIA_PRIVATE_KEY },
    /** Alfredpay's API, and the Standard Webhooks secret it signs its callbacks with (spec decision 7). */
    alfredpay: {
      baseUrl: e.ALFREDPAY_BASE_URL,
      apiKey: e.ALFREDPAY_API_KEY,
      apiSecret: e.ALFREDPAY_API_SECRET,
      callbackSecret: e.ALFREDPAY_CALLBACK_SECRET,
    },
    simulator: {
      /** `embedded`: a partner without a base URL is simulated by a child process (src/providers/embedded-simulator.ts). */
      mode: e.PARTNER_SIMULATOR ?? (production ? "off" : "embedded"),
      /** Its generated credentials and last URL, kept across restarts. */
      stateFile: join(dataDir, "partner-simulator.json"),
      /** What the simulated partners hold (customers, documents, orders), kept across restarts by the simulator. */
      partnersFile: join(dataDir, "partner-simulator-partners.json"),
      /** Its PARTNER_SIM_* timings that are set, passed on as they are. */
      timings: Object.fromEntries(
        SIMULATOR_TIMINGS.flatMap((name) => (e[name] === undefined ? [] : [[name, e[name]]])),
      ),
    },
  };
}

/** `avenia` / `alfredpay`: where a partner's settings are in the configuration. */
export function settingsKey(partner: Partner) {
  return partner === "Avenia" ? "avenia" : "alfredpay";
}
