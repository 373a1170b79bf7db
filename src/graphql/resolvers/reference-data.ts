import { Arg, Ctx, Query, Resolver } from "type-graphql";
import type { ActingContext } from "../../auth/delegation.js";
import {
  listSupportedCountries,
  listSupportedCryptocurrencies,
  listSupportedFiatCurrencies,
  listSupportedPaymentMethods,
} from "../../operations/reference-data.js";
import { getPublicKey } from "../../operations/webhooks.js";
import { signingKeyViewOf } from "../../webhooks/types.js";
import type { GraphQLContext } from "../context.js";
import { OptionalActing } from "../acting.js";
import { Performs, performField } from "../operation-field.js";
import {
  Country,
  Cryptocurrency,
  FiatCurrency,
  FiatCurrencySymbolEnum,
  NetworkEnum,
  PaymentMethod,
  RampDirectionEnum,
} from "../types/reference-data.js";
import { WebhookSigningKey } from "../types/webhooks.js";

/** Public reference data: the same service and filters as REST. */
@Resolver()
export class ReferenceDataResolver {
  @Query(() => WebhookSigningKey, {
    description: "The key webhook signatures verify with; after a rotation, the new one.",
  })
  @Performs(getPublicKey)
  async webhookSigningKey(@OptionalActing() acting: ActingContext | null, @Ctx() context: GraphQLContext) {
    return signingKeyViewOf(await performField(getPublicKey, context, acting, {}));
  }

  @Query(() => [Country], {
    description: "Countries served, by code and name (both case-insensitive) or by a currency they use.",
  })
  @Performs(listSupportedCountries)
  async supportedCountries(
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
    @OptionalActing() acting: ActingContext | null,
    @Ctx() context: GraphQLContext,
  ) {
    return (await performField(listSupportedCountries, context, acting, { countryCode, name, fiatCurrency })).countries;
  }

  @Query(() => [Cryptocurrency], { description: "Supported crypto assets, optionally on one network." })
  @Performs(listSupportedCryptocurrencies)
  async supportedCryptocurrencies(
    @Arg("network", () => NetworkEnum, {
      nullable: true,
      description: "Only the assets on this network; null: every network.",
    })
    network: string | null,
    @OptionalActing() acting: ActingContext | null,
    @Ctx() context: GraphQLContext,
  ) {
    return (await performField(listSupportedCryptocurrencies, context, acting, { network })).cryptocurrencies;
  }

  @Query(() => [FiatCurrency], { description: "Supported fiat currencies." })
  @Performs(listSupportedFiatCurrencies)
  async supportedFiatCurrencies(@OptionalActing() acting: ActingContext | null, @Ctx() context: GraphQLContext) {
    return (await performField(listSupportedFiatCurrencies, context, acting, {})).currencies;
  }

  @Query(() => [PaymentMethod], { description: "Payment rails, by ramp direction and by a fiat they carry." })
  @Performs(listSupportedPaymentMethods)
  async supportedPaymentMethods(
    @Arg("type", () => RampDirectionEnum, { nullable: true, description: "Only the rails that serve this direction." })
    type: string | null,
    @Arg("fiat", () => FiatCurrencySymbolEnum, {
      nullable: true,
      description: "Only the rails carrying this fiat; their limits are then given in it.",
    })
    fiat: string | null,
    @OptionalActing() acting: ActingContext | null,
    @Ctx() context: GraphQLContext,
  ) {
    // The catalog spells directions as REST's reference data does: buy, sell.
    const direction = type?.toLowerCase();
    return (await performField(listSupportedPaymentMethods, context, acting, { type: direction, fiat })).paymentMethods;
  }
}
