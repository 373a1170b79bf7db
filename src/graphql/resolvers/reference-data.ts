import {
  listSupportedCountries,
  listSupportedCryptocurrencies,
  listSupportedFiatCurrencies,
  listSupportedPaymentMethods,
} from "../../operations/reference-data.js";
import { getPublicKey } from "../../operations/webhooks.js";
import { signingKeyView, signingKeyViewOf } from "../../webhooks/types.js";
import { operationField, operationResolver } from "../operation-field.js";
import { RampDirectionEnum } from "../types/ramps.js";
import { outputType } from "../types/output-type.js";

const WebhookSigningKey = outputType(signingKeyView);

/** Public reference data: the same service and filters as REST. */
export const ReferenceDataResolver = operationResolver("ReferenceDataResolver", [
  operationField(getPublicKey, {
    query: "webhookSigningKey",
    returns: () => WebhookSigningKey,
    toResult: signingKeyViewOf,
  }),
  operationField(listSupportedCountries, {
    query: "supportedCountries",
    list: "countries",
    args: { fiatCurrency: {}, name: {}, countryCode: {} },
  }),
  operationField(listSupportedCryptocurrencies, {
    query: "supportedCryptocurrencies",
    list: "cryptocurrencies",
  }),
  operationField(listSupportedFiatCurrencies, {
    query: "supportedFiatCurrencies",
    list: "currencies",
  }),
  operationField(listSupportedPaymentMethods, {
    query: "supportedPaymentMethods",
    list: "paymentMethods",
    args: { fiat: {}, type: { type: () => RampDirectionEnum } },
    // The catalog spells directions as REST's reference data does: buy, sell.
    toInput: ({ type, fiat }: { type: string | null | undefined; fiat: unknown }) => ({
      type: type?.toLowerCase(),
      fiat,
    }),
  }),
]);
