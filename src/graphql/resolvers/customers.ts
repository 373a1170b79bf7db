import { Arg, Ctx, Query, Resolver } from "type-graphql";
import type { ActingContext } from "../../auth/delegation.js";
import { BRAZIL_CUSTOMER_OPERATIONS, listCustomers } from "../../operations/customers.js";
import type { GraphQLContext } from "../context.js";
import { Acting } from "../acting.js";
import { Performs, performField } from "../operation-field.js";
import { Customer } from "../types/customers.js";

/** The acting subject's provider customers and KYC/KYB state (REST: /v1/domestic/*, /v1/brl/*). */
@Resolver(() => Customer)
export class CustomersResolver {
  @Query(() => [Customer], {
    description:
      "The subject's customers in every corridor (at most one per corridor and customer type), oldest first.",
  })
  @Performs(listCustomers)
  async customers(@Acting() acting: ActingContext, @Ctx() context: GraphQLContext) {
    return performField(listCustomers, context, acting, {});
  }

  @Query(() => Boolean, {
    description:
      "Whether a Pix key is well formed: a CPF or CNPJ with valid check digits, an email, a +55 phone or a random key.",
  })
  @Performs(BRAZIL_CUSTOMER_OPERATIONS.validatePixKey)
  async pixKeyValid(
    @Arg("pixKey", () => String, { description: "The key to check." }) pixKey: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<boolean> {
    return (await performField(BRAZIL_CUSTOMER_OPERATIONS.validatePixKey, context, acting, { pixKey })).valid;
  }
}
