import {
  listSupportedCountries,
  listSupportedCryptocurrencies,
  listSupportedFiatCurrencies,
  listSupportedPaymentMethods,
} from "../../operations/reference-data.js";
import { getPublicKey } from "../../operations/webhooks.js";
import { signingKeyViewOf } from "../../webhooks/types.js";
import { operationField, operationResolver } from "../operation-field.js";
import { Country, Cryptocurrency, FiatCurrency, PaymentMethod, RampDirectionEnum } from "../types/reference-data.js";
import { WebhookSigningKey } from "../types/webhooks.js";

/** Public reference data: the same service and filters as REST. */
export const ReferenceDataResolver = operationResolver("ReferenceDataResolver", [
  operationField(getPublicKey, {
    query: "webhookSigningKey",
    returns: () => WebhookSigningKey,
    description: "The key webhook signatures verify with; after a rotation, the new one.",
    toResult: signingKeyViewOf,
  }),
  operationField(listSupportedCountries, {
    query: "supportedCountries",
    returns: () => [Country],
    description: "Countries served, by code and name (both case-insensitive) or by a currency they use.",
    args: { fiatCurrency: {}, name: {}, countryCode: {} },
    toResult: ({ countries }) => countries,
  }),
  operationField(listSupportedCryptocurrencies, {
    query: "supportedCryptocurrencies",
    returns: () => [Cryptocurrency],
    description: "Supported crypto assets, optionally on one network.",
    toResult: ({ cryptocurrencies }) => cryptocurrencies,
  }),
  operationField(listSupportedFiatCurrencies, {
    query: "supportedFiatCurrencies",
    returns: () => [FiatCurrency],
    description: "Supported fiat currencies.",
    toResult: ({ currencies }) => currencies,
  }),
  operationField(listSupportedPaymentMethods, {
    query: "supportedPaymentMethods",
    returns: () => [PaymentMethod],
    description: "Payment rails, by ramp direction and by a fiat they carry.",
    args: { fiat: {}, type: { type: () => RampDirectionEnum } },
    // The catalog spells directions as REST's reference data does: buy, sell.
    toInput: ({ type, fiat }: { type: string | null | undefined; fiat: unknown }) => ({
      type: type?.toLowerCase(),
      fiat,
    }),
    toResult: ({ paymentMethods }) => paymentMethods,
  }),
]);
