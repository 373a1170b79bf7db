import type { BankAccountType, DomesticCountry, FiatAccountType } from "../reference-data/domestic.js";
import type { KycCustomer } from "./kyc-port.js";

/** An address given with a payout account: its bank's, or its beneficiary's. */
export interface AccountAddress {
  street?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
}

/**
 * A payout bank account as the rules of its rail accepted it (src/fiat-accounts/rules.ts), normalized: numbers as
 * digits only where a rule says so, strings trimmed, absent (or blank) fields left out rather than undefined.
 */
export interface FiatAccountDetails {
  country: DomesticCountry;
  type: FiatAccountType;
  accountNumber: string;
  accountName?: string;
  accountType?: BankAccountType;
  routingNumber?: string;
  accountBankCode?: string;
  documentType?: string;
  documentNumber?: string;
  isExternal: boolean;
  /** Present when any bank* field was given. */
  bank?: AccountAddress;
  /** Present when any beneficiary* field was given (always for US BANK_USA). */
  beneficiary?: AccountAddress;
}

/** The partner's customer whose payout accounts these are. */
export type FiatAccountOwner = Pick<KycCustomer, "corridor" | "providerCustomerId">;

/**
 * Payout accounts at the partner that pays out in their corridor: its offramps name the partner's id of the account,
 * and it checks the account is the customer's. Calls are made outside any database transaction.
 */
export interface FiatAccountRegistry {
  /** Registers the account for the customer; the partner's id of it. */
  register(owner: FiatAccountOwner, details: FiatAccountDetails): Promise<string>;
  /** Removes the account at the partner; one the partner no longer knows counts as removed. */
  remove(owner: FiatAccountOwner, partnerAccountId: string): Promise<void>;
}
