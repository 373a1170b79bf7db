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
    toResult: signingKeyViewOf,
  }),
  operationField(listSupportedCountries, {
    query: "supportedCountries",
    returns: () => [Country],
    args: { fiatCurrency: {}, name: {}, countryCode: {} },
    toResult: ({ countries }) => countries,
  }),
  operationField(listSupportedCryptocurrencies, {
    query: "supportedCryptocurrencies",
    returns: () => [Cryptocurrency],
    toResult: ({ cryptocurrencies }) => cryptocurrencies,
  }),
  operationField(listSupportedFiatCurrencies, {
    query: "supportedFiatCurrencies",
    returns: () => [FiatCurrency],
    toResult: ({ currencies }) => currencies,
  }),
  operationField(listSupportedPaymentMethods, {
    query: "supportedPaymentMethods",
    returns: () => [PaymentMethod],
    args: { fiat: {}, type: { type: () => RampDirectionEnum } },
    // The catalog spells directions as REST's reference data does: buy, sell.
    toInput: ({ type, fiat }: { type: string | null | undefined; fiat: unknown }) => ({
      type: type?.toLowerCase(),
      fiat,
    }),
    toResult: ({ paymentMethods }) => paymentMethods,
  }),
]);
