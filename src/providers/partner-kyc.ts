import type { Corridor } from "../reference-data/corridors.js";
import type { KycCustomer, KycProvider } from "./kyc-port.js";
import { servingPartner, type Partner } from "./partners.js";

/** What Avenia does of KYC: Brazil's subaccounts, level 1 by API or token, owners, the hosted KYB. */
export type AveniaKycCalls = Pick<
  KycProvider,
  | "createCustomer"
  | "submitBrazilKyc"
  | "importKycToken"
  | "registerBeneficialOwner"
  | "submitBrazilKyb"
  | "startHostedFlow"
  | "startLiveness"
  | "observe"
>;

/** What Alfredpay does of KYC: customers, form submissions with their files, hosted links. */
export type AlfredpayKycCalls = Pick<
  KycProvider,
  "createCustomer" | "openSubmission" | "sendFile" | "sendSubmission" | "startHostedFlow" | "observe"
>;

/**
 * KYC at the partner that serves each corridor (CORRIDOR_PARTNERS): every call goes to that partner's client. A
 * corridor without a partner has no KYC to do.
 */
export class PartnerKyc implements KycProvider {
  constructor(
    private readonly corridors: Readonly<Record<Corridor, Partner | null>>,
    /** Absent when Avenia is not configured (nor simulated). */
    private readonly avenia: AveniaKycCalls | undefined,
    /** Absent when Alfredpay is not configured (nor simulated). */
    private readonly alfredpay: AlfredpayKycCalls | undefined,
  ) {}

  createCustomer(input: Parameters<KycProvider["createCustomer"]>[0]): Promise<string> {
    return this.partnerOf(input.corridor).createCustomer(input);
  }

  openSubmission(...args: Parameters<KycProvider["openSubmission"]>) {
    return this.alfredpayFor(args[0]).openSubmission(...args);
  }

  sendFile(...args: Parameters<KycProvider["sendFile"]>) {
    return this.alfredpayFor(args[0]).sendFile(...args);
  }

  sendSubmission(...args: Parameters<KycProvider["sendSubmission"]>) {
    return this.alfredpayFor(args[0]).sendSubmission(...args);
  }

  startHostedFlow(customer: KycCustomer) {
    return this.partnerOf(customer.corridor).startHostedFlow(customer);
  }

  submitBrazilKyc(...args: Parameters<KycProvider["submitBrazilKyc"]>) {
    return this.aveniaFor(args[0]).submitBrazilKyc(...args);
  }

  importKycToken(...args: Parameters<KycProvider["importKycToken"]>) {
    return this.aveniaFor(args[0]).importKycToken(...args);
  }

  registerBeneficialOwner(...args: Parameters<KycProvider["registerBeneficialOwner"]>) {
    return this.aveniaFor(args[0]).registerBeneficialOwner(...args);
  }

  submitBrazilKyb(...args: Parameters<KycProvider["submitBrazilKyb"]>) {
    return this.aveniaFor(args[0]).submitBrazilKyb(...args);
  }

  observe(...args: Parameters<KycProvider["observe"]>) {
    return this.partnerOf(args[0].corridor).observe(...args);
  }

  startLiveness(customer: KycCustomer) {
    return this.aveniaFor(customer).startLiveness(customer);
  }

  private partnerOf(corridor: Corridor): AveniaKycCalls | AlfredpayKycCalls {
    return servingPartner<AveniaKycCalls | AlfredpayKycCalls>(this.corridors, corridor, {
      Avenia: this.avenia,
      Alfredpay: this.alfredpay,
    });
  }

  private aveniaFor(customer: KycCustomer): AveniaKycCalls {
    return servingPartner(this.corridors, customer.corridor, { Avenia: this.avenia });
  }

  private alfredpayFor(customer: KycCustomer): AlfredpayKycCalls {
    return servingPartner(this.corridors, customer.corridor, { Alfredpay: this.alfredpay });
  }
}
