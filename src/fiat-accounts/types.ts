import type { FiatAccountCountry, FiatAccountType } from "./rules.js";

/** A payout account as callers see it (the reference's list item): the account number masked. */
export interface FiatAccountView {
  fiatAccountId: string;
  /** The subject's provider account (customer) in the account's country. */
  customerId: string;
  country: FiatAccountCountry;
  type: FiatAccountType;
  accountNumber: string;
  accountName: string;
  accountType: string | null;
  routingNumber: string | null;
  accountBankCode: string | null;
  createdAt: Date;
}
