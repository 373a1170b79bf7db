import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { MoneyCommandLedger } from "../partner-commands/ledger.js";
import { AlfredpayClient } from "../providers/alfredpay/client.js";
import { AlfredpayFiatAccounts } from "../providers/alfredpay/fiat-accounts.js";
import { AlfredpayKyc } from "../providers/alfredpay/kyc.js";
import { AlfredpayRamps } from "../providers/alfredpay/ramps.js";
import { AveniaClient, AveniaPublicKeySource } from "../providers/avenia/client.js";
import { AveniaKyc } from "../providers/avenia/kyc.js";
import { AveniaCallbackKey } from "../providers/avenia/signing.js";
import { AveniaRamps } from "../providers/avenia/ramps.js";
import { CorridorRamps, partnerRampsOf } from "../providers/corridor-ramps.js";
import { PartnerFiatAccounts } from "../providers/partner-fiat-accounts.js";
import { PartnerKyc } from "../providers/partner-kyc.js";
import type { RampProvider } from "../providers/ramp-port.js";
import { SandboxRampProvider } from "../providers/sandbox.js";

/** A callback waits for Avenia's key: well within the partner's own wait for our answer. */
const AVENIA_KEY_TIMEOUT_MS = 5_000;

/** The licensed partners as the services see them: a port each for ramps, KYC and fiat accounts. */
export interface Partners {
  ramps: RampProvider;
  kyc: PartnerKyc;
  fiatAccounts: PartnerFiatAccounts;
  /** The key Avenia signs its callbacks with, from its API (none without Avenia's URL). */
  aveniaCallbackKey?: AveniaCallbackKey;
  /** Alfredpay's callbacks' shared secret. */
  alfredpayCallbackSecret?: string;
  close(): Promise<void>;
}

/** The `names` of a partner's settings when each is set (not empty), else undefined. */
function allSet<Settings, Name extends keyof Settings>(settings: Settings, names: readonly Name[]) {
  if (!names.every((name) => settings[name])) return undefined;
  return Object.fromEntries(names.map((name) => [name, settings[name]])) as { [N in Name]: NonNullable<Settings[N]> };
}

/**
 * The partners' clients, made from their settings, behind the ports the services call. A partner without
 * settings has no client: what it would serve answers PROVIDER_UNAVAILABLE. Tests may put a ramp provider of
 * their own in place of every corridor's ramps, and their clock in the callback key's.
 */
export function connectPartners(
  config: Pick<Config, "partners" | "ramps">,
  db: Db,
  log: Logger,
  { rampProvider, clock }: { rampProvider?: RampProvider; clock?: () => Date } = {},
): Partners {
  const { avenia, alfredpay, corridors, closedCorridors } = config.partners;
  const { ramps } = config;
  const aveniaSettings = allSet(avenia, ["baseUrl", "apiKey", "privateKeyPem"]);
  const aveniaClient = aveniaSettings && new AveniaClient({ ...aveniaSettings, logger: log });
  const alfredpaySettings = allSet(alfredpay, ["baseUrl", "apiKey", "apiSecret"]);
  const alfredpayClient = alfredpaySettings && new AlfredpayClient({ ...alfredpaySettings, logger: log });
  // The callback key is a callback's only partner call, and a rare one.
  const aveniaKeys =
    avenia.baseUrl === undefined
      ? undefined
      : new AveniaPublicKeySource({ baseUrl: avenia.baseUrl, logger: log, timeoutMs: AVENIA_KEY_TIMEOUT_MS });
  return {
    ramps:
      rampProvider ??
      new CorridorRamps(
        new SandboxRampProvider(ramps.sandboxStepDelayMs),
        partnerRampsOf(corridors, {
          ...(aveniaClient && {
            Avenia: new AveniaRamps(
              aveniaClient,
              new MoneyCommandLedger(db, log, { callTimeoutMs: ramps.stepTimeoutMs }),
            ),
          }),
          ...(alfredpayClient && { Alfredpay: new AlfredpayRamps(alfredpayClient) }),
        }),
        ramps.partnerCheckIntervalMs,
        closedCorridors,
        { refreshMs: ramps.ratesRefreshMs, maxAgeMs: ramps.ratesMaxAgeMs, timeoutMs: ramps.stepTimeoutMs, log },
      ),
    kyc: new PartnerKyc(
      corridors,
      aveniaClient && new AveniaKyc(aveniaClient),
      alfredpayClient && new AlfredpayKyc(alfredpayClient),
    ),
    fiatAccounts: new PartnerFiatAccounts(corridors, alfredpayClient && new AlfredpayFiatAccounts(alfredpayClient)),
    aveniaCallbackKey:
      aveniaKeys && new AveniaCallbackKey(() => aveniaKeys.publicKey(), clock && (() => clock().getTime())),
    alfredpayCallbackSecret: alfredpay.callbackSecret,
    async close() {
      await aveniaKeys?.close();
      await aveniaClient?.close();
      await alfredpayClient?.close();
    },
  };
}
