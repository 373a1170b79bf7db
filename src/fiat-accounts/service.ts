import { randomUUID } from "node:crypto";
import type { ActingContext, Delegation } from "../auth/delegation.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import type { KycService } from "../kyc/service.js";
import type { FiatAccountDetails } from "../providers/ports.js";
import { canonicalId, fieldError, type ListPage, type Pagination } from "../validation.js";
import * as repo from "./repo.js";
import { maskAccountNumber, shownAccountType, validateFiatAccount, type FiatAccountCountry } from "./rules.js";
import type { CreateFiatAccountInput, FiatAccountView } from "./types.js";

const notFound = () => new AppError("NOT_FOUND", "Fiat account not found.");

/**
 * Payout bank accounts of the acting subject (CONTRACT.md, KYC/KYB and fiat accounts). Creating and
 * deleting are bound to the account's corridor (the manager's current policy for a child); listing is a
 * read and skips it. Accounts are soft-deleted so ramps keep naming the account they paid out to.
 */
export class FiatAccountService {
  constructor(
    private readonly db: Db,
    private readonly delegation: Delegation,
    private readonly kyc: KycService,
  ) {}

  /** The corridor of an account to create, once the manager's policy allows it (for a child): before the details. */
  async creatableIn(acting: ActingContext, country: FiatAccountCountry): Promise<FiatAccountCountry> {
    await this.delegation.authorizeCorridor(acting, country);
    return country;
  }

  /** Adds a payout account in the country `creatableIn` gave, with the rules of its rail. */
  async create(
    acting: ActingContext,
    country: FiatAccountCountry,
    input: CreateFiatAccountInput,
  ): Promise<FiatAccountView> {
    const details = validateFiatAccount(country, input);
    const customerId = await this.customerId(acting, country);
    const created = await repo.insertFiatAccount(this.db, {
      id: randomUUID(),
      profileId: acting.subjectProfileId,
      actorProfileId: acting.actorProfileId,
      country,
      type: details.type,
      details: JSON.stringify(details),
      createdAt: new Date(),
    });
    return view(created, customerId);
  }

  /** A page of the subject's accounts in one country, newest first. */
  async list(
    acting: ActingContext,
    country: FiatAccountCountry,
    { limit, offset }: ListPage,
  ): Promise<{ fiatAccounts: FiatAccountView[]; pagination: Pagination }> {
    const { rows, total } = await repo.listFiatAccounts(this.db, acting.subjectProfileId, country, { limit, offset });
    const pagination = { limit, offset, total };
    if (rows.length === 0) return { fiatAccounts: [], pagination };
    const customerId = await this.customerId(acting, country);
    return { fiatAccounts: rows.map((row) => view(row, customerId)), pagination };
  }

  async delete(acting: ActingContext, fiatAccountId: string): Promise<void> {
    const id = canonicalId(fiatAccountId);
    const account = id ? await repo.findFiatAccount(this.db, id, acting.subjectProfileId) : null;
    if (!account) throw notFound();
    await this.delegation.authorizeCorridor(acting, account.country as FiatAccountCountry);
    if (!(await repo.softDeleteFiatAccount(this.db, account.id, acting.subjectProfileId, new Date()))) throw notFound();
  }

  /**
   * The account a SELL ramp of `subjectProfileId` in `corridor` pays out to: one of the subject's usable
   * accounts (else NOT_FOUND) in that very corridor (else 400).
   */
  async payoutAccount(subjectProfileId: string, fiatAccountId: string, corridor: string): Promise<string> {
    const id = canonicalId(fiatAccountId);
    const account = id ? await repo.findFiatAccount(this.db, id, subjectProfileId) : null;
    if (!account) throw notFound();
    if (account.country !== corridor)
      throw fieldError("fiatAccountId", `is an account in ${account.country}; this ramp pays out in ${corridor}`);
    return account.id;
  }

  /** The subject's provider customer in the country, whose accounts these are; NOT_FOUND before it exists. */
  private async customerId(acting: ActingContext, country: FiatAccountCountry): Promise<string> {
    const cases = (await this.kyc.casesOf(acting.subjectProfileId)).filter((row) => row.corridor === country);
    const customer = cases.find((row) => row.customerType === "individual") ?? cases[0];
    if (!customer) throw new AppError("NOT_FOUND", `Customer not found: create the ${country} customer first.`);
    return customer.providerCustomerId;
  }
}

function view(
  row: { id: string; country: string; details: string; createdAt: Date },
  customerId: string,
): FiatAccountView {
  const details = JSON.parse(row.details) as FiatAccountDetails;
  return {
    fiatAccountId: row.id,
    customerId,
    country: row.country as FiatAccountCountry,
    type: details.type,
    accountNumber: maskAccountNumber(details.accountNumber),
    ...(details.accountName !== undefined && { accountName: details.accountName }),
    accountType: shownAccountType(details),
    ...(details.routingNumber !== undefined && { routingNumber: details.routingNumber }),
    ...(details.accountBankCode !== undefined && { accountBankCode: details.accountBankCode }),
    createdAt: row.createdAt,
  };
}
