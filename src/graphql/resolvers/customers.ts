import { BRAZIL_CUSTOMER_OPERATIONS } from "../../operations/brazil-customers.js";
import { listCustomers } from "../../operations/customers.js";
import { operationField, operationResolver } from "../operation-field.js";

/** The acting subject's provider customers and KYC/KYB state (REST: /v1/domestic/*, /v1/brl/*). */
export const CustomersResolver = operationResolver("CustomersResolver", [
  operationField(listCustomers, {
    query: "customers",
  }),
  operationField(BRAZIL_CUSTOMER_OPERATIONS.validatePixKey, {
    query: "pixKeyValid",
    returns: () => Boolean,
    toResult: ({ valid }) => valid,
  }),
]);
