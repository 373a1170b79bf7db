import { Arg, Query, Resolver } from "type-graphql";
import {
  supportedCountries,
  supportedCryptocurrencies,
  supportedFiatCurrencies,
  supportedPaymentMethods,
} from "../../reference-data/service.js";
import { Auth } from "../auth-directive.js";
import {
  Country,
  Cryptocurrency,
  FiatCurrency,
  FiatCurrencySymbolEnum,
  NetworkEnum,
  PaymentMethod,
  RampDirectionEnum,
} from "../types/reference-data.js";

/** Public reference data: the same service and filters as REST. */
@Resolver()
export class ReferenceDataResolver {
  @Query(() => [Country], {
    description: "Countries served, by code and name (both case-insensitive) or by a currency they use.",
  })
  @Auth({ requires: ["REFERENCE_DATA"], delegation: "NONE" })
  supportedCountries(
    @Arg("countryCode", () => String, { nullable: true }) countryCode: string | null,
    @Arg("name", () => String, { nullable: true }) name: string | null,
    @Arg("fiatCurrency", () => FiatCurrencySymbolEnum, { nullable: true }) fiatCurrency: string | null,
  ) {
    return supportedCountries({
      countryCode: countryCode ?? undefined,
      name: name ?? undefined,
      fiatCurrency: fiatCurrency ?? undefined,
    });
  }

  @Query(() => [Cryptocurrency], { description: "Supported crypto assets, optionally on one network." })
  @Auth({ requires: ["REFERENCE_DATA"], delegation: "NONE" })
  supportedCryptocurrencies(@Arg("network", () => NetworkEnum, { nullable: true }) network: string | null) {
    return supportedCryptocurrencies({ network: network ?? undefined });
  }

  @Query(() => [FiatCurrency], { description: "Supported fiat currencies." })
  @Auth({ requires: ["REFERENCE_DATA"], delegation: "NONE" })
  supportedFiatCurrencies() {
    return supportedFiatCurrencies();
  }

  @Query(() => [PaymentMethod], { description: "Payment rails, by ramp direction and by a fiat they carry." })
  @Auth({ requires: ["REFERENCE_DATA"], delegation: "NONE" })
  supportedPaymentMethods(
    @Arg("type", () => RampDirectionEnum, { nullable: true }) type: string | null,
    @Arg("fiat", () => FiatCurrencySymbolEnum, { nullable: true }) fiat: string | null,
  ) {
    return supportedPaymentMethods({ type: type ?? undefined, fiat: fiat ?? undefined });
  }
}
