import type { ActingContext, Delegation } from "../auth/delegation.js";
import { AppError } from "../errors.js";
import { formatAmount, money } from "../money.js";
import type { KycService } from "../kyc/service.js";
import type { KycStatus } from "../providers/kyc-port.js";
import { COUNTRIES, fiatCurrency } from "../reference-data/catalog.js";
import { monthlyLimit } from "../reference-data/price-schedule.js";
import {
  CORRIDOR_FIAT,
  CORRIDORS,
  childMaySupport,
  type Corridor,
  type CustomerType,
} from "../reference-data/corridors.js";
import { subjectEntities } from "./customer-accounts.js";
import { kycProviderOf, onboardingRequirements, type OnboardingRequirements } from "./requirements.js";
import type {
  ActiveEntityInput,
  ActiveEntityView,
  CorridorEligibility,
  LimitsInput,
  OnboardingAccountView,
  OnboardingStatusView,
  RequirementsInput,
  UserLimit,
} from "./types.js";
import type { ManagedProfileService } from "../managed-profiles/service.js";
import type { RampService } from "../ramps/service.js";

/** Which directions each corridor's country supports. */
const CORRIDOR_SUPPORT = Object.fromEntries(
  CORRIDORS.map((corridor) => [corridor, COUNTRIES.find((country) => country.corridor === corridor)!.support]),
) as Record<Corridor, { buy: boolean; sell: boolean }>;

type RampInfo = { corridors: Record<Corridor, CorridorEligibility> };

/** Each corridor's eligibility from its KYC status, where `allowed` says whether the corridor is open to the subject. */
async function eligibility(
  statuses: Readonly<Record<Corridor, KycStatus>>,
  allowed: (corridor: Corridor) => Promise<boolean>,
): Promise<RampInfo> {
  const corridors = {} as Record<Corridor, CorridorEligibility>;
  for (const corridor of CORRIDORS) {
    const caseStatus = statuses[corridor];
    const open = caseStatus === "approved" && (await allowed(corridor));
    const support = CORRIDOR_SUPPORT[corridor];
    corridors[corridor] = {
      kycStatus: caseStatus === "in_review" ? "pending" : caseStatus,
      canBuy: open && support.buy,
      canSell: open && support.sell,
    };
  }
  return { corridors };
}

/** An account's state: a case under way (pending or in review) is pending. */
const accountState = (status: KycStatus): OnboardingAccountView["status"] =>
  status === "approved" || status === "rejected" ? status : "pending";

/** Ramp eligibility, limits and onboarding state of the acting subject. */
export class OnboardingService {
  /** The ramp-info of each statuses object of subjects no manager controls. */
  private readonly ownEligibility = new WeakMap<object, RampInfo>();

  constructor(
    private readonly kyc: KycService,
    private readonly delegation: Delegation,
    private readonly ramps: RampService,
    private readonly managedProfiles: ManagedProfileService,
    private readonly publicBaseUrl: string,
    /** Corridors closed here: no subject can buy or sell in them. */
    private readonly closedCorridors: readonly Corridor[],
  ) {}

  /**
   * Per corridor only the KYC status and whether buying and selling are possible: no PII, ids or limits. A
   * subject no manager controls gets the same answer object while its statuses are the same object (see
   * KycService.corridorStatuses): REST serializes it once.
   */
  async rampInfo(acting: ActingContext): Promise<RampInfo> {
    const statuses = await this.kyc.corridorStatuses(acting.subjectProfileId);
    // Only a managed child's corridors depend on more than its statuses: its manager's current policy.
    const open = (corridor: Corridor) => !this.closedCorridors.includes(corridor);
    if (acting.controllingManagerId)
      return eligibility(statuses, async (corridor) => open(corridor) && this.corridorAllowed(acting, corridor));
    let info = this.ownEligibility.get(statuses);
    if (!info)
      this.ownEligibility.set(statuses, (info = await eligibility(statuses, async (corridor) => open(corridor))));
    return info;
  }

  /** Monthly maximum and use per requested corridor and direction; each corridor passes the manager's current policy. */
  async limits(acting: ActingContext, { corridors }: LimitsInput): Promise<{ limits: UserLimit[] }> {
    for (const corridor of corridors) await this.delegation.authorizeCorridor(acting, corridor);
    const now = new Date();
    const startsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const endsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    const completed = await this.ramps.completedSince(acting.subjectProfileId, corridors, startsAt);
    const limits = corridors.flatMap((corridor) =>
      (["BUY", "SELL"] as const).map((direction) => {
        const currency = CORRIDOR_FIAT[corridor];
        const used = completed
          .filter((ramp) => ramp.corridor === corridor && ramp.type === direction)
          .reduce(
            (sum, ramp) => sum.plus(direction === "BUY" ? ramp.quote.inputAmount : ramp.quote.outputAmount),
            money(0),
          );
        const decimals = fiatCurrency(currency)!.decimals;
        return {
          corridor,
          currency,
          direction,
          max: formatAmount(money(monthlyLimit(corridor)), decimals),
          used: formatAmount(used, decimals),
          period: { type: "calendar_month" as const, startsAt, endsAt },
        };
      }),
    );
    return { limits };
  }

  /**
   * The subject's customer entities and, per entity, its provider accounts (KYC/KYB cases) in the corridors it
   * may use. The active entity is the one the subject chose, else its only active one.
   */
  async status(acting: ActingContext): Promise<OnboardingStatusView> {
    const { entities, cases, activeCustomerType } = await this.entities(acting);
    const active = entities.filter((entity) => entity.isActive);
    const chosen =
      active.find((entity) => entity.customerType === activeCustomerType) ??
      (active.length === 1 ? active[0] : undefined);
    const views = entities.map((entity) => {
      const customerType = entity.customerType as CustomerType;
      const accounts = cases
        .filter((row) => row.customerType === customerType && row.status !== "not_started")
        .filter((row) => !acting.controllingManagerId || childMaySupport(row.corridor as Corridor, customerType))
        .map((row) => ({
          id: row.providerCustomerId,
          provider: kycProviderOf(row.corridor as Corridor),
          corridor: row.corridor as Corridor,
          customerType,
          status: accountState(row.status as KycStatus),
        }));
      return {
        id: entity.id,
        customerType,
        status: entity.isActive ? ("active" as const) : ("archived" as const),
        accounts,
      };
    });
    return {
      activeEntityId: chosen?.id ?? null,
      selectionRequired: !chosen && active.length > 1,
      roles: acting.controllingManagerId ? ["managed_profile"] : [],
      entities: views,
    };
  }

  /**
   * Makes the subject's entity of a customer type the one it acts as, for good (the reference's immutable
   * choice): choosing it again answers the same; another type afterwards is refused. NOT_FOUND when the
   * subject has no active entity of that type (a business one comes with a business customer).
   */
  async selectActiveEntity(acting: ActingContext, { type }: ActiveEntityInput): Promise<ActiveEntityView> {
    const { entities } = await this.entities(acting);
    const entity = entities.find((candidate) => candidate.isActive && candidate.customerType === type);
    if (!entity)
      throw new AppError(
        "NOT_FOUND",
        type === "business" ? "No business entity: create a business customer first." : "No individual entity.",
      );
    await this.kyc.chooseCustomerType(acting.subjectProfileId, type);
    return { activeEntityId: entity.id, customerType: type };
  }

  /** The subject's entities, its cases (due decisions applied) and the customer type it chose to act as. */
  private async entities(acting: ActingContext) {
    const [stored, { cases, activeCustomerType }] = await Promise.all([
      this.managedProfiles.customerEntities(acting.subjectProfileId),
      this.kyc.onboardingState(acting.subjectProfileId),
    ]);
    const hasBusinessCustomer = cases.some((row) => row.customerType === "business");
    const managedChild = acting.controllingManagerId !== null;
    return {
      entities: subjectEntities(stored, acting.subjectProfileId, managedChild, hasBusinessCustomer),
      cases,
      activeCustomerType,
    };
  }

  requirements({ country, customerType }: RequirementsInput): OnboardingRequirements {
    const flow = onboardingRequirements(country, customerType, this.publicBaseUrl);
    if (!flow) throw new AppError("NOT_FOUND", `No ${customerType} onboarding is offered in ${country}.`);
    return flow;
  }

  /** Whether the subject may use the corridor now: a child through its manager's current policy. */
  private async corridorAllowed(acting: ActingContext, corridor: Corridor): Promise<boolean> {
    try {
      await this.delegation.authorizeCorridor(acting, corridor);
      return true;
    } catch (error) {
      if (error instanceof AppError && error.code === "MANAGED_PROFILE_ACCESS_DENIED") return false;
      throw error;
    }
  }
}
