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
    @Arg("countryCode", () => String, {
      nullable: true,
      description: "A two-letter ISO 3166-1 code, in any case; anything else fails validation.",
    })
    countryCode: string | null,
    @Arg("name", () => String, {
      nullable: true,
      description: "The English name, matched whole and ignoring case (at most 100 characters).",
    })
    name: string | null,
    @Arg("fiatCurrency", () => FiatCurrencySymbolEnum, {
      nullable: true,
      description: "Only the countries that ramp in this currency.",
    })
    fiatCurrency: string | null,
  ) {
    return supportedCountries({
      countryCode: countryCode ?? undefined,
      name: name ?? undefined,
      fiatCurrency: fiatCurrency ?? undefined,
    });
  }

  @Query(() => [Cryptocurrency], { description: "Supported crypto assets, optionally on one network." })
  @Auth({ requires: ["REFERENCE_DATA"], delegation: "NONE" })
  supportedCryptocurrencies(
    @Arg("network", () => NetworkEnum, {
      nullable: true,
      description: "Only the assets on this network; null: every network.",
    })
    network: string | null,
  ) {
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
    @Arg("type", () => RampDirectionEnum, { nullable: true, description: "Only the rails that serve this direction." })
    type: string | null,
    @Arg("fiat", () => FiatCurrencySymbolEnum, {
      nullable: true,
      description: "Only the rails carrying this fiat; their limits are then given in it.",
    })
    fiat: string | null,
  ) {
    return supportedPaymentMethods({ type: type ?? undefined, fiat: fiat ?? undefined });
  }
}
