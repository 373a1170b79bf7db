import { Ctx, Query, Resolver } from "type-graphql";
import type { ActingContext } from "../../auth/delegation.js";
import { listCustomers } from "../../operations/customers.js";
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
  async customers(@Acting() acting: ActingContext, @Ctx() context: GraphQLContext): Promise<Customer[]> {
    return (await performField(listCustomers, context, acting, {})).map((row) => ({
      customerId: row.providerCustomerId,
      corridor: row.corridor,
      customerType: row.customerType,
      kycStatus: row.status,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    }));
  }
}
