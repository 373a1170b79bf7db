import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import type { ActingContext } from "../../auth/delegation.js";
import {
  createDomesticFiatAccount,
  deleteDomesticFiatAccount,
  listDomesticFiatAccounts,
} from "../../operations/fiat-accounts.js";
import type { GraphQLContext } from "../context.js";
import { Acting } from "../acting.js";
import { Performs, performField } from "../operation-field.js";
import { offsetPage, PageArgs, pageConnection } from "../types/connection.js";
import {
  CreateFiatAccountInput,
  FiatAccount,
  FiatAccountConnection,
  FiatAccountCountryEnum,
} from "../types/fiat-accounts.js";
import { fiatAccountView } from "../../fiat-accounts/types.js";
import { idField } from "../../output.js";
import { payloadType } from "../types/payload.js";

const CreateFiatAccountPayload = payloadType("createFiatAccount", {
  fiatAccount: fiatAccountView.describe("The new payout account."),
});
const DeleteFiatAccountPayload = payloadType("deleteFiatAccount", {
  deletedFiatAccountId: idField("The payout account deleted."),
});

/** Payout fiat accounts of the acting subject (itself, or a managed child through the selector or its own key). */
@Resolver(() => FiatAccount)
export class FiatAccountsResolver {
  @Query(() => FiatAccountConnection, { description: "The subject's payout accounts in a country, newest first." })
  @Performs(listDomesticFiatAccounts)
  async fiatAccounts(
    @Arg("country", () => FiatAccountCountryEnum, { description: "The corridor whose accounts are listed." })
    country: string,
    @Args() args: PageArgs,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ) {
    const page = await performField(listDomesticFiatAccounts, context, acting, { country, ...offsetPage(args) });
    return pageConnection(page.fiatAccounts, page.pagination, args);
  }

  @Mutation(() => CreateFiatAccountPayload, {
    description: "Adds a payout account in the input's country (checked against the manager's policy for a child).",
  })
  @Performs(createDomesticFiatAccount)
  async createFiatAccount(
    @Arg("input", () => CreateFiatAccountInput, {
      description: "The account; which fields are required and how they are checked depends on its country and type.",
    })
    input: InstanceType<typeof CreateFiatAccountInput>,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof CreateFiatAccountPayload>> {
    return { fiatAccount: await performField(createDomesticFiatAccount, context, acting, input) };
  }

  @Mutation(() => DeleteFiatAccountPayload, {
    description: "Deletes a payout account: it is no longer listed or usable; ramps keep naming it.",
  })
  @Performs(deleteDomesticFiatAccount)
  async deleteFiatAccount(
    @Arg("fiatAccountId", () => ID, {
      description: "One of the subject's usable accounts; an unknown, deleted or other subject's id is NOT_FOUND.",
    })
    fiatAccountId: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof DeleteFiatAccountPayload>> {
    await performField(deleteDomesticFiatAccount, context, acting, { fiatAccountId });
    return { deletedFiatAccountId: fiatAccountId };
  }
}
