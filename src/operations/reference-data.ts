import { z } from "zod";
import {
  countriesQuery,
  countryList,
  cryptocurrenciesQuery,
  cryptocurrencyList,
  fiatCurrencyList,
  paymentMethodList,
  paymentMethodsQuery,
  supportedCountries,
  supportedCryptocurrencies,
  supportedFiatCurrencies,
  supportedPaymentMethods,
} from "../reference-data/service.js";
import { defineOpenOperation } from "./operation.js";
import { onboardingRequirementsView } from "../onboarding/requirements.js";
import { requirementsInput } from "../onboarding/types.js";

/** Reference data: anyone may read it (a presented credential must still be valid), acting for no subject. */
export const REFERENCE_DATA = { requires: ["REFERENCE_DATA"], delegation: "NONE" } as const;

export const listSupportedCountries = defineOpenOperation(REFERENCE_DATA, {
  name: "listSupportedCountries",
  summary: "List the countries served, by code and name (both case-insensitive) or by a currency they use",
  input: countriesQuery,
  output: countryList,
  run: (_app, _acting, query) => ({ countries: supportedCountries(query) }),
});

export const listSupportedCryptocurrencies = defineOpenOperation(REFERENCE_DATA, {
  name: "listSupportedCryptocurrencies",
  summary: "List the supported crypto assets, optionally on one network",
  input: cryptocurrenciesQuery,
  output: cryptocurrencyList,
  run: (_app, _acting, query) => ({ cryptocurrencies: supportedCryptocurrencies(query) }),
});

export const listSupportedFiatCurrencies = defineOpenOperation(REFERENCE_DATA, {
  name: "listSupportedFiatCurrencies",
  summary: "List supported fiat currencies",
  input: z.object({}),
  output: fiatCurrencyList,
  run: () => ({ currencies: supportedFiatCurrencies() }),
});

export const listSupportedPaymentMethods = defineOpenOperation(REFERENCE_DATA, {
  name: "listSupportedPaymentMethods",
  summary: "List the payment rails, by ramp direction and by a fiat they carry",
  input: paymentMethodsQuery,
  output: paymentMethodList,
  run: (_app, _acting, query) => ({ paymentMethods: supportedPaymentMethods(query) }),
});

export const getOnboardingRequirements = defineOpenOperation(REFERENCE_DATA, {
  name: "getOnboardingRequirements",
  summary:
    "Get the documents and ordered steps of KYC (KYB) in a corridor for a customer type, open to anyone; NOT_FOUND where none is offered (AR businesses)",
  input: requirementsInput,
  output: onboardingRequirementsView,
  run: (app, _acting, query) => app.onboarding.requirements(query),
});
