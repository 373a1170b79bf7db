import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import type { ActingContext } from "../../auth/delegation.js";
import { Auth } from "../auth-directive.js";
import { Acting, type GraphQLContext } from "../context.js";
import { offsetConnection, offsetPage, PageArgs } from "../types/connection.js";
import {
  CreateFiatAccountInput,
  FiatAccount,
  FiatAccountConnection,
  FiatAccountCountryEnum,
} from "../types/fiat-accounts.js";
import { serviceInput } from "./ramps.js";
import type { FiatAccountCountry } from "../../fiat-accounts/rules.js";

/** Payout fiat accounts of the acting subject (itself, or a managed child through the selector or its own key). */
@Resolver(() => FiatAccount)
export class FiatAccountsResolver {
  @Query(() => FiatAccountConnection, { description: "The subject's payout accounts in a country, newest first." })
  @Auth({ requires: ["PROVIDER_ACCOUNTS"], delegation: "DELEGATED" })
  async fiatAccounts(
    @Arg("country", () => FiatAccountCountryEnum) country: string,
    @Args() args: PageArgs,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    const { limit, offset } = offsetPage(args);
    // One more than the page: whether another page follows.
    const views = await context.app.fiatAccounts.list(acting, country as FiatAccountCountry, {
      limit: limit + 1,
      offset,
    });
    return offsetConnection(views.slice(0, limit), offset, views.length > limit);
  }

  @Mutation(() => FiatAccount, {
    description: "Adds a payout account in the input's country (checked against the manager's policy for a child).",
  })
  @Auth({ requires: ["PROVIDER_ACCOUNTS"], delegation: "DELEGATED" })
  async createFiatAccount(
    @Arg("input", () => CreateFiatAccountInput) input: CreateFiatAccountInput,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    return context.app.fiatAccounts.create(acting, input.country as FiatAccountCountry, serviceInput(input));
  }

  @Mutation(() => Boolean, {
    description: "Deletes a payout account: it is no longer listed or usable; ramps keep naming it.",
  })
  @Auth({ requires: ["PROVIDER_ACCOUNTS"], delegation: "DELEGATED" })
  async deleteFiatAccount(
    @Arg("fiatAccountId", () => ID) fiatAccountId: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    await context.app.fiatAccounts.delete(acting, fiatAccountId);
    return true;
  }
}
