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
    description:
      "Whether a Pix key is well formed: a CPF or CNPJ with valid check digits, an email, a +55 phone or a random key.",
    toResult: ({ valid }) => valid,
  }),
]);
