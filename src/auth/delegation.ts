import { AppError } from "../errors.js";
import { z } from "zod";
import { idField, instantField, named, outputObject } from "../output.js";
import {
  childMaySupport,
  CORRIDORS,
  CUSTOMER_TYPES,
  type Corridor,
  type CustomerType,
} from "../reference-data/corridors.js";
import { canonicalId } from "../validation.js";
import { requireCapabilities, type Capability } from "./capabilities.js";
import { principalProfileId, type Principal } from "./principal.js";
import type { Caches } from "../cache/caches.js";
import type { RevocableCache } from "../cache/revocable-cache.js";

/** What a route or GraphQL field declares about acting for managed children. */
export interface DelegationRule {
  /** Whether X-Managed-Profile-Id may select a child here. */
  selector: "supported" | "unsupported";
  /** Whether a managed child's own credential may call it. */
  childCredential: "allowed" | "refused";
  /** Set on corridor-bound mutations: the manager's current policy and the capability table apply. */
  corridor?: Corridor;
  /** The customer type the route is for; a child of the other type is refused. */
  customerType?: CustomerType;
}

const NO_DELEGATION: DelegationRule = { selector: "unsupported", childCredential: "allowed" };
/** Acting for a child: the selector and the child's own key both work; corridor checks, if any, come later. */
const DELEGATED: DelegationRule = { selector: "supported", childCredential: "allowed" };
/** Acting for a child only through its manager's selector: a child's own key is refused (the BR token import). */
const SELECTOR_ONLY: DelegationRule = { selector: "supported", childCredential: "refused" };
/** Managing children: the manager acts for itself; selectors and children's own keys are refused. */
const MANAGER_ONLY: DelegationRule = { selector: "unsupported", childCredential: "refused" };

/** The rules by name, as GraphQL fields declare them (`@auth(delegation: ...)`). */
export const DELEGATION_RULES = { NONE: NO_DELEGATION, DELEGATED, SELECTOR_ONLY, MANAGER_ONLY } as const;
export type DelegationName = keyof typeof DELEGATION_RULES;

/** Who acts, for whom: the one frozen answer every service receives. */
export interface ActingContext {
  /** The authenticated profile (the manager, when acting for a child through the selector). */
  readonly actorProfileId: string;
  /** Whose data the operation reads or changes. */
  readonly subjectProfileId: string;
  /** Set when the subject is a managed child: its manager, whose current policy was checked. */
  readonly controllingManagerId: string | null;
  readonly credentialId: string | null;
  /** The partner a partner-managed credential is attributed to. */
  readonly partnerId: string | null;
  readonly principalKind: "public" | "secret" | "session";
}

const denied = (message: string) => new AppError("MANAGED_PROFILE_ACCESS_DENIED", message);
const actorRequired = () =>
  new AppError("AUTHENTICATION_REQUIRED", "Acting for a managed profile needs a secret key or a session.");

/** The credential, when the principal is a managed child's own key. */
function childCredentialOf(principal: Principal) {
  return (principal.kind === "secret" || principal.kind === "public") && principal.credential.managerProfileId !== null
    ? principal.credential
    : undefined;
}

/** A manager's corridor policy as the operator set it. */
export const managerPolicyView = outputObject("Manager", "A manager's corridor policy, set by the operator.", {
  profileId: idField("The manager's profile id (UUID)."),
  allowedCorridors: z
    .array(named("Corridor", z.enum(CORRIDORS)))
    .describe("Corridors the manager may act in for its children, sorted; the capability table still applies."),
  allowedCustomerTypes: z
    .array(named("CustomerType", z.enum(CUSTOMER_TYPES)))
    .nullable()
    .describe("Null: no narrowing beyond the corridor capability table."),
  isActive: z
    .boolean()
    .describe("False once the operator disables the manager: its children can be neither managed nor acted for."),
  createdAt: instantField("When the operator first enabled the manager."),
  updatedAt: instantField("When the operator last changed the policy."),
});
export type ManagerPolicy = z.output<typeof managerPolicyView>;

/** A profile as delegation checks it before acting for it: the managed-profiles module provides it. */
export interface DelegationTarget {
  managerProfileId: string | null;
  customerType: CustomerType | null;
  deletedAt: Date | null;
  /** How many of its customer entities are active (a child acts through exactly one). */
  activeEntities: number;
}

/** The manager policies and children delegation checks against: the managed-profiles module provides them. */
export interface ManagedProfileDirectory {
  policy(managerProfileId: string): Promise<ManagerPolicy | null>;
  delegationTarget(childProfileId: string): Promise<DelegationTarget | null>;
  /** `delegationTarget` of several profiles in one read; unknown ones are left out. */
  delegationTargets(childProfileIds: readonly string[]): Promise<Map<string, DelegationTarget>>;
}

/**
 * Turns a principal, the optional X-Managed-Profile-Id and the route's rule into an acting context,
 * running the contract's checks in the contract's order. Manager policies and children are cached
 * briefly and dropped on every instance when the operator changes a policy or a child is deleted.
 */
export class Delegation {
  private readonly policies: RevocableCache<ManagerPolicy | null>;
  private readonly targets: RevocableCache<DelegationTarget | null>;

  constructor(
    private readonly directory: ManagedProfileDirectory,
    caches: Caches,
  ) {
    this.policies = caches.define("managerPolicies");
    this.targets = caches.define("delegationTargets");
  }

  /**
   * The contract's first selector checks, which come before the capability check: a child's own
   * credential cannot select (403), the selector must be a UUID (400), and only a secret key or a session
   * can act for a child (401). Returns the selector as the database spells ids.
   */
  checkSelectorCaller(principal: Principal, selector: string | undefined): string | undefined {
    if (selector === undefined) return undefined;
    if (childCredentialOf(principal)) throw denied("A managed child's credential cannot select a managed profile.");
    // An unauthenticated caller gets an authentication error, never a validation error.
    if (principal.kind === "anonymous") throw actorRequired();
    const childId = canonicalId(selector);
    if (!childId) throw new AppError("INVALID_MANAGED_PROFILE_ID");
    if (principal.kind !== "secret" && principal.kind !== "session") throw actorRequired();
    return childId;
  }

  /**
   * Everything before delegation proper, in the contract's order, for REST and GraphQL alike: an
   * unauthenticated caller gets the operation's authentication error first, then the selector's caller
   * checks, then the capability matrix. Returns the selector as the database spells ids.
   */
  checkCaller(
    principal: Principal,
    selector: string | undefined,
    capabilities: readonly Capability[],
  ): string | undefined {
    if (principal.kind === "anonymous") requireCapabilities(principal, capabilities);
    const childId = this.checkSelectorCaller(principal, selector);
    requireCapabilities(principal, capabilities);
    return childId;
  }

  /** Null for callers that speak for no profile (anonymous, operator) and select none. */
  async resolve(
    principal: Principal,
    selector: string | undefined,
    rule: DelegationRule,
  ): Promise<ActingContext | null> {
    const childCredential = childCredentialOf(principal);
    const credential = principal.kind === "secret" || principal.kind === "public" ? principal.credential : null;
    const credentialId = credential?.id ?? null;
    const partnerId = credential?.partnerId ?? null;

    const childId = this.checkSelectorCaller(principal, selector);
    if (childId !== undefined) {
      if (rule.selector === "unsupported") throw new AppError("MANAGED_PROFILE_UNSUPPORTED");
      const managerId = principalProfileId(principal)!;
      await this.checkControl(managerId, childId, rule);
      return {
        actorProfileId: managerId,
        subjectProfileId: childId,
        controllingManagerId: managerId,
        credentialId,
        partnerId,
        principalKind: principal.kind as "secret" | "session",
      };
    }

    if (childCredential) {
      if (rule.childCredential === "refused") throw denied("A managed child's credential cannot do this.");
      await this.checkControl(childCredential.managerProfileId!, childCredential.profileId, rule);
      return {
        actorProfileId: childCredential.profileId,
        subjectProfileId: childCredential.profileId,
        controllingManagerId: childCredential.managerProfileId,
        credentialId,
        partnerId,
        principalKind: principal.kind as "public" | "secret",
      };
    }

    const profileId = principalProfileId(principal);
    if (!profileId || principal.kind === "anonymous" || principal.kind === "operator") return null;
    return {
      actorProfileId: profileId,
      subjectProfileId: profileId,
      controllingManagerId: null,
      credentialId,
      partnerId,
      principalKind: principal.kind,
    };
  }

  /**
   * The corridor checks of a corridor-bound mutation whose corridor (and customer type, for KYC and KYB)
   * is known only from its data (the quote's fiat, the ramp's corridor, the requested limits, the
   * customer to create), against the manager's current policy.
   */
  async authorizeCorridor(acting: ActingContext, corridor: Corridor, customerType?: CustomerType): Promise<void> {
    if (!acting.controllingManagerId) return;
    await this.checkControl(acting.controllingManagerId, acting.subjectProfileId, {
      ...DELEGATED,
      corridor,
      customerType,
    });
  }

  /**
   * A manager reading for several of its children at once (a GraphQL list of them), each as X-Managed-Profile-Id
   * would act for it with a read (no corridor): the child's acting context, or the error the selector would
   * answer. The policy and the children cost a read each, whatever the number of children.
   */
  async actForChildren(
    manager: ActingContext,
    childIds: readonly string[],
  ): Promise<Map<string, ActingContext | AppError>> {
    const managerId = manager.actorProfileId;
    const policy = await this.managerPolicy(managerId);
    const targets = await this.targets.loadMany(childIds, async (missing) => {
      const found = await this.directory.delegationTargets(missing);
      return new Map(missing.map((id) => [id, targetEntry(id, found.get(id) ?? null)]));
    });
    return new Map(
      childIds.map((childId): [string, ActingContext | AppError] => {
        try {
          checkTarget(managerId, policy, targets.get(childId) ?? null, DELEGATED);
        } catch (error) {
          if (error instanceof AppError) return [childId, error];
          throw error;
        }
        return [childId, { ...manager, subjectProfileId: childId, controllingManagerId: managerId }];
      }),
    );
  }

  private managerPolicy(managerId: string): Promise<ManagerPolicy | null | undefined> {
    return this.policies.load(managerId, async () => ({
      value: await this.directory.policy(managerId),
      tags: [managerId],
    }));
  }

  /** Steps 4 to 6 of the contract: the manager, the child, then corridor and customer type. */
  private async checkControl(managerId: string, childId: string, rule: DelegationRule): Promise<void> {
    const manager = await this.managerPolicy(managerId);
    const child = await this.targets.load(childId, async () =>
      targetEntry(childId, await this.directory.delegationTarget(childId)),
    );
    checkTarget(managerId, manager, child ?? null, rule);
  }
}

/** A delegation target as cached: dropped when the child or its manager changes. */
const targetEntry = (childId: string, target: DelegationTarget | null) => ({
  value: target,
  tags: [childId, ...(target?.managerProfileId ? [target.managerProfileId] : [])],
});

/** Steps 4 to 6 of the contract on what was read: the manager, the child, then corridor and customer type. */
function checkTarget(
  managerId: string,
  manager: ManagerPolicy | null | undefined,
  child: DelegationTarget | null,
  rule: DelegationRule,
): void {
  if (!manager?.isActive) throw denied("The controlling manager is not active.");
  if (
    !child ||
    child.managerProfileId !== managerId ||
    child.deletedAt ||
    child.activeEntities !== 1 ||
    !child.customerType
  ) {
    throw denied("The managed profile is not an active child of this manager.");
  }
  if (rule.corridor) {
    const corridorAllowed = manager.allowedCorridors.includes(rule.corridor);
    const typeAllowed =
      manager.allowedCustomerTypes === null || manager.allowedCustomerTypes.includes(child.customerType);
    if (!corridorAllowed || !typeAllowed || !childMaySupport(rule.corridor, child.customerType)) {
      throw denied(`The manager's policy does not allow ${rule.corridor} for this ${child.customerType} profile.`);
    }
  }
  if (rule.customerType && rule.customerType !== child.customerType)
    throw new AppError("MANAGED_PROFILE_CUSTOMER_TYPE_MISMATCH");
}
