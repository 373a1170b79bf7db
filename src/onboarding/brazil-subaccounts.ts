import type { ActingContext } from "../auth/delegation.js";
import { AppError } from "../errors.js";
import type { KycCase, KycService } from "../kyc/service.js";
import { canonicalId, fieldError } from "../validation.js";
import { digits } from "./brazil-subaccount-types.js";

const subaccountNotFound = () => new AppError("NOT_FOUND", "Subaccount not found.");

/** How the BR operations find the subject's subaccount (its BR case) they name: by id, by tax id, or its own. */
export class BrazilSubaccounts {
  constructor(private readonly kyc: KycService) {}

  /** The subject's subaccount of this customer type, or null without one. */
  async existing(
    acting: ActingContext,
    key: { corridor: "BR"; customerType: "individual" | "business" },
  ): Promise<KycCase | null> {
    try {
      return await this.kyc.caseOf(acting, key);
    } catch (error) {
      if (error instanceof AppError && error.code === "NOT_FOUND") return null;
      throw error;
    }
  }

  /** The subject's individual subaccount with this tax id: documents and selfies are uploaded for its level 1. */
  async individualByTaxId(acting: ActingContext, taxId: string): Promise<KycCase> {
    const row = await this.ownedByTaxId(acting, taxId);
    if (row.customerType !== "individual")
      throw fieldError("taxId", "is a company subaccount's: companies upload KYB documents");
    return row;
  }

  /** The subject's company subaccount with this id (an individual's is refused). */
  async company(acting: ActingContext, subAccountId: string): Promise<KycCase> {
    const row = await this.byId(acting, subAccountId);
    if (row.customerType !== "business") throw fieldError("subAccountId", "is not a company subaccount");
    return row;
  }

  async byId(acting: ActingContext, subAccountId: string): Promise<KycCase> {
    const id = canonicalId(subAccountId);
    const row = id ? await this.kyc.caseByCustomer(acting, id) : null;
    if (!row || row.corridor !== "BR") throw subaccountNotFound();
    return row;
  }

  /** The subject's BR subaccount with this tax id; another's, or none, is not found (400 in the reference). */
  async ownedByTaxId(acting: ActingContext, taxId: string): Promise<KycCase> {
    const cases = await this.kyc.casesOf(acting.subjectProfileId);
    const row = cases.find((candidate) => candidate.corridor === "BR" && candidate.taxId === digits(taxId));
    if (!row) throw fieldError("taxId", "names no subaccount of this profile");
    return row;
  }

  /** The subject's one BR subaccount (individual before business); not found without one. */
  async canonical(acting: ActingContext): Promise<KycCase> {
    const cases = (await this.kyc.casesOf(acting.subjectProfileId)).filter((row) => row.corridor === "BR");
    const row = cases.find((candidate) => candidate.customerType === "individual") ?? cases[0];
    if (!row) throw subaccountNotFound();
    return row;
  }

  /** The subaccount with this tax id, or without one the subject's own. */
  byTaxIdOrOwn(acting: ActingContext, taxId: string | undefined): Promise<KycCase> {
    return taxId ? this.ownedByTaxId(acting, taxId) : this.canonical(acting);
  }
}
