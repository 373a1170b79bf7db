import { z } from "zod";
import {
  countriesQuery,
  cryptocurrenciesQuery,
  paymentMethodsQuery,
  supportedCountries,
  supportedCryptocurrencies,
  supportedFiatCurrencies,
  supportedPaymentMethods,
} from "../reference-data/service.js";
import { defineOperation, type Operation } from "./operation.js";
import type { App } from "../app.js";
import type { ActingContext } from "../auth/delegation.js";
import { requirementsInput } from "../onboarding/types.js";

/** Reference data: anyone may read it (a presented credential must still be valid), acting for no subject. */
const referenceOperation = <Input extends z.ZodObject, Result>(
  operation: Pick<Operation<Input, Result>, "name" | "summary" | "input"> & {
    run(input: z.output<Input>, app: App): Result;
  },
) =>
  defineOperation<Input, Result, ActingContext | null>({
    ...operation,
    access: { requires: ["REFERENCE_DATA"], delegation: "NONE" },
    withoutSubject: true,
    run: (app, _acting, input) => operation.run(input, app),
  });

export const listSupportedCountries = referenceOperation({
  name: "listSupportedCountries",
  summary: "List supported countries",
  input: countriesQuery,
  run: (query) => ({ countries: supportedCountries(query) }),
});

export const listSupportedCryptocurrencies = referenceOperation({
  name: "listSupportedCryptocurrencies",
  summary: "List supported cryptocurrencies",
  input: cryptocurrenciesQuery,
  run: (query) => ({ cryptocurrencies: supportedCryptocurrencies(query) }),
});

export const listSupportedFiatCurrencies = referenceOperation({
  name: "listSupportedFiatCurrencies",
  summary: "List supported fiat currencies",
  input: z.object({}),
  run: () => ({ currencies: supportedFiatCurrencies() }),
});

export const listSupportedPaymentMethods = referenceOperation({
  name: "listSupportedPaymentMethods",
  summary: "List supported payment methods",
  input: paymentMethodsQuery,
  run: (query) => ({ paymentMethods: supportedPaymentMethods(query) }),
});

export const getOnboardingRequirements = referenceOperation({
  name: "getOnboardingRequirements",
  summary: "Get what KYC or KYB a corridor requires",
  input: requirementsInput,
  run: (query, app) => app.onboarding.requirements(query),
});
