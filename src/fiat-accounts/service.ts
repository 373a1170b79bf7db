import { randomUUID } from "node:crypto";
import type { ActingContext, Delegation } from "../auth/delegation.js";
import { AppError } from "../errors.js";
import type { KycService } from "../kyc/service.js";
import type { FiatAccountDetails, FiatAccountOwner, FiatAccountRegistry } from "../providers/fiat-account-port.js";
import { canonicalId, fieldError, type ListPage } from "../validation.js";
import type { Pagination } from "../output.js";
import type { FiatAccountRepository } from "./repo.js";
import { maskAccountNumber, validateFiatAccount } from "./rules.js";
import { shownAccountType, type FiatAccountCountry } from "./rail-rules.js";
import type { CreateFiatAccountInput, FiatAccountView } from "./types.js";

const notFound = () => new AppError("NOT_FOUND", "Fiat account not found.");

/** The account a SELL ramp pays out to: ours, and the partner's customer and account its offramp names. */
export interface PayoutAccount {
  fiatAccountId: string;
  partnerCustomerId: string;
  partnerAccountId: string;
}

/**
 * Payout bank accounts of the acting subject (CONTRACT.md, KYC/KYB and fiat accounts), each registered at the
 * partner that pays out in its corridor, under the subject's customer there. Creating and deleting are bound to the
 * account's corridor (the manager's current policy for a child); listing is a read and skips it. Accounts are
 * soft-deleted so ramps keep naming the account they paid out to.
 */
export class FiatAccountService {
  constructor(
    private readonly repository: FiatAccountRepository,
    private readonly delegation: Delegation,
    private readonly kyc: KycService,
    private readonly registry: FiatAccountRegistry,
  ) {}

  /** The corridor of an account to create, once the manager's policy allows it (for a child): before the details. */
  async creatableIn(acting: ActingContext, country: FiatAccountCountry): Promise<FiatAccountCountry> {
    await this.delegation.authorizeCorridor(acting, country);
    return country;
  }

  /**
   * Adds a payout account in the country `creatableIn` gave, with the rules of its rail: registered at the partner
   * first, outside any transaction (a refusal or an outage leaves nothing of ours), then stored with the partner's id.
   */
  async create(
    acting: ActingContext,
    country: FiatAccountCountry,
    input: CreateFiatAccountInput,
  ): Promise<FiatAccountView> {
    const details = validateFiatAccount(country, input);
    const owner = await this.owner(acting, country);
    const partnerAccountId = await this.registry.register(owner, details);
    try {
      const created = await this.repository.insertFiatAccount({
        id: randomUUID(),
        profileId: acting.subjectProfileId,
        actorProfileId: acting.actorProfileId,
        country,
        type: details.type,
        details: JSON.stringify(details),
        createdAt: new Date(),
        partnerCustomerId: owner.providerCustomerId,
        partnerAccountId,
      });
      return view(created);
    } catch (error) {
      // Not stored: the partner's account would be one nothing of ours names. Removing it is best effort (a failed
      // call is in the transport's log); the error that stopped the creation is the one to answer.
      await this.registry.remove(owner, partnerAccountId).catch(() => undefined);
      throw error;
    }
  }

  /** A page of the subject's accounts in one country, newest first. */
  async list(
    acting: ActingContext,
    country: FiatAccountCountry,
    { limit, offset }: ListPage,
  ): Promise<{ fiatAccounts: FiatAccountView[]; pagination: Pagination }> {
    const { rows, total } = await this.repository.listFiatAccounts(acting.subjectProfileId, country, { limit, offset });
    return { fiatAccounts: rows.map(view), pagination: { limit, offset, total } };
  }

  /** Removes the account at the partner (one it no longer knows counts as removed), then soft-deletes ours. */
  async delete(acting: ActingContext, fiatAccountId: string): Promise<void> {
    const id = canonicalId(fiatAccountId);
    const account = id ? await this.repository.findFiatAccount(id, acting.subjectProfileId) : null;
    if (!account) throw notFound();
    await this.delegation.authorizeCorridor(acting, account.country as FiatAccountCountry);
    const { partnerCustomerId, partnerAccountId } = registered(account);
    await this.registry.remove(
      { corridor: account.country as FiatAccountCountry, providerCustomerId: partnerCustomerId },
      partnerAccountId,
    );
    if (!(await this.repository.softDeleteFiatAccount(account.id, acting.subjectProfileId, new Date())))
      throw notFound();
  }

  /**
   * The account a SELL ramp of `subjectProfileId` in `corridor` pays out to: one of the subject's usable
   * accounts (else NOT_FOUND) in that very corridor (else 400), with the ids the partner knows it by.
   */
  async payoutAccount(subjectProfileId: string, fiatAccountId: string, corridor: string): Promise<PayoutAccount> {
    const id = canonicalId(fiatAccountId);
    const account = id ? await this.repository.findFiatAccount(id, subjectProfileId) : null;
    if (!account) throw notFound();
    if (account.country !== corridor)
      throw fieldError("fiatAccountId", `is an account in ${account.country}; this ramp pays out in ${corridor}`);
    return { fiatAccountId: account.id, ...registered(account) };
  }

  /**
   * The subject's customer at the partner in the country, whose accounts these are (its individual customer when it
   * has both): the partner knows it from its creation, so accounts may be added while its KYC is pending or in
   * review, as the reference allows (ramps require approval). Before it exists: NOT_FOUND, as the reference answers.
   */
  private async owner(acting: ActingContext, country: FiatAccountCountry): Promise<FiatAccountOwner> {
    const cases = (await this.kyc.casesOf(acting.subjectProfileId)).filter((row) => row.corridor === country);
    const customer = cases.find((row) => row.customerType === "individual") ?? cases[0];
    if (!customer) throw new AppError("NOT_FOUND", `Customer not found: create the ${country} customer first.`);
    return { corridor: country, providerCustomerId: customer.providerCustomerId };
  }
}

type FiatAccountRow = Awaited<ReturnType<FiatAccountRepository["insertFiatAccount"]>>;

/** The partner's ids of a usable account: every one has both (those from before were retired by their migration). */
function registered(row: FiatAccountRow): Omit<PayoutAccount, "fiatAccountId"> {
  if (row.partnerCustomerId === null || row.partnerAccountId === null)
    throw new AppError("INTERNAL", "A usable fiat account is not registered at the partner.");
  return { partnerCustomerId: row.partnerCustomerId, partnerAccountId: row.partnerAccountId };
}

function view(row: FiatAccountRow): FiatAccountView {
  const details = JSON.parse(row.details) as FiatAccountDetails;
  return {
    fiatAccountId: row.id,
    customerId: registered(row).partnerCustomerId,
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
