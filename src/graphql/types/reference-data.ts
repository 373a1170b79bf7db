import { rampDirectionEnum } from "../../quotes/types.js";
import { graphqlEnum, outputType } from "./output-type.js";
import { countryList, cryptocurrencyList, fiatCurrencyList, paymentMethodList } from "../../reference-data/service.js";

export const RampDirectionEnum = graphqlEnum(rampDirectionEnum);

export const Country = outputType(countryList.shape.countries.element);
export const Cryptocurrency = outputType(cryptocurrencyList.shape.cryptocurrencies.element);
export const FiatCurrency = outputType(fiatCurrencyList.shape.currencies.element);
export const PaymentMethod = outputType(paymentMethodList.shape.paymentMethods.element);
