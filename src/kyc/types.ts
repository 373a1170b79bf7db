import { z } from "zod";
import { instantField, named, outputObject } from "../output.js";
import { KYC_STATUSES, type KycStatus } from "../providers/kyc-port.js";
import { CORRIDORS, CUSTOMER_TYPES, type Corridor, type CustomerType } from "../reference-data/corridors.js";
import type { KycCaseRow } from "./repo.js";

export const customerView = outputObject(
  "Customer",
  "The subject's customer with the provider in a corridor, as one customer type, and its KYC (KYB) status.",
  {
    customerId: named("ID", z.string()).describe("The provider's customer id (the BR subaccount id)."),
    corridor: named("Corridor", z.enum(CORRIDORS)).describe("The corridor whose provider holds this customer."),
    customerType: named("CustomerType", z.enum(CUSTOMER_TYPES)).describe(
      "Individual customers go through KYC, business customers through KYB.",
    ),
    kycStatus: named("KycCaseStatus", z.enum(KYC_STATUSES)).describe(
      "Why a case was rejected is kept by support, never returned.",
    ),
    createdAt: instantField("When the customer was created (ISO 8601 date-time, UTC)."),
    updatedAt: instantField(
      "Last stored change to the customer's case (ISO 8601 date-time, UTC); a provider decision that fell due may show in kycStatus first.",
    ),
  },
);
export type CustomerView = z.output<typeof customerView>;

/** A customer as its KYC (KYB) case keeps it. */
export const customerViewOf = (row: KycCaseRow): CustomerView => ({
  customerId: row.providerCustomerId,
  corridor: row.corridor as Corridor,
  customerType: row.customerType as CustomerType,
  kycStatus: row.status as KycStatus,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});
