import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { ActingContext } from "../auth/delegation.js";
import { taxIdCustomerType } from "../kyc/tax-ids.js";
import { idField, instantField, named, outputObject } from "../output.js";
import type { QuoteService } from "../quotes/service.js";
import { CORRIDOR_FIAT } from "../reference-data/corridors.js";
import { fieldError, text, uuid } from "../validation.js";
import type { WidgetSessionService } from "../widget-sessions/service.js";
import type { InitialKycAttemptRow, OnboardingRepository } from "./repo.js";

/** The quote (and widget session) Brazilian KYC was started from, and the CPF or CNPJ the subject gave. */
export const initialKycAttemptInput = z
  .object({
    quoteId: named("ID", uuid()).describe("A BRL quote the subject may see (its own, or one nobody owns)."),
    taxId: text("code")
      .refine((taxId) => taxIdCustomerType(taxId) !== undefined, "is not a valid CPF or CNPJ")
      .describe(
        "The CPF (an individual's KYC) or CNPJ (a company's KYB), formatting ignored; for a managed child it must match the child's customer type.",
      ),
    sessionId: named("ID", uuid().optional()).describe("A widget session the subject may see; left out when none."),
  })
  .strict();

export const initialKycAttemptView = outputObject(
  "BrazilKycAttempt",
  "Where the subject started Brazilian KYC from: a quote, and maybe a widget session.",
  {
    quoteId: idField("The BRL quote KYC was started from."),
    sessionId: idField("The widget session it was started in; null when none was named.").nullable(),
    recordedAt: instantField("When it was first recorded (ISO 8601 date-time, UTC); recording it again keeps this."),
  },
);
export type InitialKycAttemptView = z.output<typeof initialKycAttemptView>;

const view = (row: InitialKycAttemptRow): InitialKycAttemptView => ({
  quoteId: row.quoteId,
  sessionId: row.sessionId,
  recordedAt: row.createdAt,
});

/** Where subjects started Brazilian KYC from: the reference's initial KYC attempts (POST /v1/brl/kyc/record-attempt). */
export class InitialKycAttempts {
  constructor(
    private readonly repository: OnboardingRepository,
    private readonly quotes: QuoteService,
    private readonly widgetSessions: WidgetSessionService,
  ) {}

  /**
   * Records that the subject started Brazilian KYC from a BRL quote, and from a widget session if named: both
   * must be ones the subject may see (another profile's is NOT_FOUND). Recording it again answers the first
   * record. The tax id is only checked for form: owning a quote does not prove owning a tax id, so it is
   * neither matched to a subaccount nor kept.
   */
  async record(
    acting: ActingContext,
    { quoteId, sessionId }: z.output<typeof initialKycAttemptInput>,
  ): Promise<InitialKycAttemptView> {
    const quote = await this.quotes.get(acting, quoteId);
    if (quote.feeCurrency !== CORRIDOR_FIAT.BR) throw fieldError("quoteId", "is not a BRL quote");
    const session = sessionId === undefined ? null : await this.widgetSessions.requireVisible(acting, sessionId);
    const row = await this.repository.recordInitialKycAttempt({
      id: randomUUID(),
      profileId: acting.subjectProfileId,
      actorProfileId: acting.actorProfileId,
      quoteId: quote.id,
      sessionId: session,
    });
    return view(row);
  }

  /** The subject's most recent attempt, or null. */
  async latest(acting: ActingContext): Promise<InitialKycAttemptView | null> {
    const row = await this.repository.findLatestInitialKycAttempt(acting.subjectProfileId);
    return row && view(row);
  }
}
