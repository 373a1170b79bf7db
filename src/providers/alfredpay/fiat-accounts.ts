import type { BankAccountType } from "../../reference-data/domestic.js";
import { PartnerError } from "../http/partner-http.js";
import type { FiatAccountDetails, FiatAccountOwner, FiatAccountRegistry } from "../fiat-account-port.js";
import type { AlfredpayClient, FiatAccountRequest } from "./client.js";
import type { FiatAccountFields } from "./requests.js";

/** Bank account types in the partner's words: Colombian banks' (as Vortex's form offers them), and US banks'. */
const COLOMBIAN_ACCOUNT_TYPES: Record<BankAccountType, string> = { checking: "CORRIENTE", savings: "AHORRO" };
const US_ACCOUNT_TYPES: Record<BankAccountType, string> = { checking: "CHECKING", savings: "SAVINGS" };
/** A CVU's entity block starts so (a payment provider's account); a bank's CBU never does. */
const CVU_PREFIX = "000";

/** Payout accounts at Alfredpay (AR, CO, MX, US). Partner errors propagate as the client raised them; nothing here logs. */
export class AlfredpayFiatAccounts implements FiatAccountRegistry {
  constructor(private readonly client: AlfredpayClient) {}

  async register(owner: FiatAccountOwner, details: FiatAccountDetails): Promise<string> {
    const { fiatAccountId } = await this.client.createFiatAccount(
      fiatAccountRequest(owner.providerCustomerId, details),
    );
    return fiatAccountId;
  }

  async remove(owner: FiatAccountOwner, partnerAccountId: string): Promise<void> {
    try {
      await this.client.deleteFiatAccount(owner.providerCustomerId, partnerAccountId);
    } catch (error) {
      // Gone already (a repeat whose first answer was lost, or removed at the partner): what was asked for holds.
      if (error instanceof PartnerError && error.partnerStatus === 404) return;
      throw error;
    }
  }
}

/**
 * Our validated account under Alfredpay's names. The type is the reference's, whose enum is Alfredpay's, and goes as
 * it is. The facts give Vortex's shapes of SPEI, Colombian ACH, COELSA and BANK_USA, followed here; where they are
 * silent:
 * - COELSA's `accountType` is CBU or CVU, told apart by the number (Vortex's form asks which);
 * - a US ACH account takes BANK_USA's fields (routing number, account type, the bank's name and address if given);
 * - bank account types are in the partner's words (`COLOMBIAN_ACCOUNT_TYPES`, `US_ACCOUNT_TYPES`);
 * - the holder's name goes only where a shape has a place for it (SPEI, Colombian ACH), and an AR account's CUIT/CUIL
 *   and a US wire's beneficiary address (internal accounts: the customer is the beneficiary) stay with us, as Vortex
 *   forwards none of them: personal data the partner does not ask for is not sent.
 */
function fiatAccountRequest(customerId: string, details: FiatAccountDetails): FiatAccountRequest {
  return {
    customerId,
    type: details.type,
    fiatAccountFields: fiatAccountFields(details),
    isExternal: details.isExternal,
  };
}

function fiatAccountFields(details: FiatAccountDetails): FiatAccountFields {
  const { accountNumber, accountName, accountType, accountBankCode } = details;
  const holder = accountName === undefined ? undefined : { accountHolderName: accountName };
  switch (details.country) {
    case "MX":
      return { accountNumber, accountType: "CLABE", ...(holder && { metadata: holder }) };
    case "AR":
      return { accountNumber, accountType: accountNumber.startsWith(CVU_PREFIX) ? "CVU" : "CBU" };
    case "CO":
      return {
        accountName: accountBankCode,
        accountNumber,
        accountType: inWords(accountType, COLOMBIAN_ACCOUNT_TYPES),
        metadata: { ...holder, documentType: details.documentType, documentNumber: details.documentNumber },
      };
    case "US":
      return usAccountFields(details);
  }
}

/** BANK_USA's shape: the bank's address beside the account, or, for an external account, inside `metadata` with the beneficiary's. */
function usAccountFields(details: FiatAccountDetails): FiatAccountFields {
  const { accountNumber, accountType, routingNumber, accountBankCode, bank, beneficiary } = details;
  const account = {
    accountName: accountBankCode,
    accountNumber,
    accountType: inWords(accountType, US_ACCOUNT_TYPES),
    routingNumber,
  };
  const bankAddress = bank && {
    bankStreet: bank.street,
    bankCity: bank.city,
    bankState: bank.state?.toUpperCase(),
    bankPostalCode: bank.postalCode,
    bankCountry: bank.country,
  };
  if (!details.isExternal) return { ...account, ...bankAddress };
  const beneficiaryAddress = beneficiary && {
    street: beneficiary.street,
    city: beneficiary.city,
    stateProvince: beneficiary.state?.toUpperCase(),
    postalCode: beneficiary.postalCode,
    country: beneficiary.country,
  };
  return { ...account, metadata: { ...bankAddress, beneficiaryAddress } };
}

/** The rules require a bank account type on the rails that take one (CO, US): "" should one be missing, which the partner refuses. */
function inWords(accountType: BankAccountType | undefined, words: Record<BankAccountType, string>): string {
  return accountType === undefined ? "" : words[accountType];
}
