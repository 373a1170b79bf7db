import DataLoader from "dataloader";
import type { App } from "../app.js";
import type { ActingContext } from "../auth/delegation.js";
import { AppError } from "../errors.js";
import type { CustomerView } from "../kyc/types.js";
import type { CredentialsPage } from "../managed-profiles/service.js";
import type { ProfileView } from "../profiles/types.js";
import type { HistoryPage, RampErrorView } from "../ramps/types.js";
import type { RampHistory } from "../ramps/view-cache.js";
import type { ListPage } from "../validation.js";

/** What a field of a manager's child asks for: the child, as its manager, and the field's page. */
interface ChildKey<Page = undefined> {
  manager: ActingContext;
  childId: string;
  page: Page;
}

/**
 * A batch function over children's fields: one `load` for all the children a manager asks the same page of
 * (one list field of one list, in practice), each child's value or the error answered for it.
 */
function perManagerAndPage<Page, Value>(
  load: (manager: ActingContext, childIds: string[], page: Page) => Promise<Map<string, Value | AppError>>,
) {
  return async (keys: readonly ChildKey<Page>[]): Promise<(Value | Error)[]> => {
    const groups = new Map<string, ChildKey<Page>[]>();
    for (const key of keys) {
      const group = JSON.stringify([key.manager.actorProfileId, key.page]);
      const members = groups.get(group);
      if (members) members.push(key);
      else groups.set(group, [key]);
    }
    const values = new Map<ChildKey<Page>, Value | AppError>();
    await Promise.all(
      [...groups.values()].map(async (group) => {
        const loaded = await load(group[0]!.manager, [...new Set(group.map((key) => key.childId))], group[0]!.page);
        for (const key of group) values.set(key, loaded.get(key.childId)!);
      }),
    );
    return keys.map((key) => values.get(key)!);
  };
}

/**
 * What `read` answers for the children the manager may act for (X-Managed-Profile-Id's rules for a read), and
 * for each other child the error the selector would answer.
 */
async function actingForChildren<Value>(
  app: App,
  manager: ActingContext,
  childIds: string[],
  read: (childIds: string[]) => Promise<Map<string, Value>>,
): Promise<Map<string, Value | AppError>> {
  const acting = await app.delegation.actForChildren(manager, childIds);
  const allowed = childIds.filter((id) => !(acting.get(id) instanceof AppError));
  const values = allowed.length > 0 ? await read(allowed) : new Map<string, Value>();
  return new Map(
    childIds.map((id): [string, Value | AppError] => {
      const refusal = acting.get(id);
      return [id, refusal instanceof AppError ? refusal : values.get(id)!];
    }),
  );
}

const batching = <Key, Value>(batch: DataLoader.BatchLoadFn<Key, Value>) => new DataLoader(batch, { cache: false });

/**
 * Batch loaders of one GraphQL operation, new for each request (or subscription): a list of N items costs one
 * query per field, not N. They batch but do not cache: a subscription's context lives as long as its stream, and
 * a cached error log would go stale there. Each is made when a resolver first asks for it: most operations use
 * none, and five made for every request were the largest share of what a GraphQL request left behind for the
 * garbage collector.
 */
export class GraphQLLoaders {
  #rampErrors?: DataLoader<string, RampErrorView[]>;
  #profile?: DataLoader<string, ProfileView>;
  #childRamps?: DataLoader<ChildKey<HistoryPage>, RampHistory>;
  #childCustomers?: DataLoader<ChildKey, CustomerView[]>;
  #childCredentials?: DataLoader<ChildKey<ListPage>, CredentialsPage>;

  constructor(private readonly app: App) {}

  /** Error logs by ramp id; only for ramps a resolver already read as the caller's. */
  get rampErrors() {
    return (this.#rampErrors ??= batching(async (rampIds) => {
      const byRamp = await this.app.ramps.errorsOfRamps(rampIds);
      return rampIds.map((id) => byRamp.get(id) ?? []);
    }));
  }

  /** Profiles by id; only for ids the caller speaks for (`me`). */
  get profile() {
    return (this.#profile ??= batching((profileIds) => this.app.profiles.getMany(profileIds)));
  }

  /** A page of a child's ramp history, read by its manager as X-Managed-Profile-Id would (ManagedProfile.ramps). */
  get childRamps() {
    return (this.#childRamps ??= batching(
      perManagerAndPage((manager, childIds, page: HistoryPage) =>
        actingForChildren(this.app, manager, childIds, (allowed) => this.app.ramps.histories(allowed, page)),
      ),
    ));
  }

  /** A child's customers, read by its manager as X-Managed-Profile-Id would (ManagedProfile.customers). */
  get childCustomers() {
    return (this.#childCustomers ??= batching(
      perManagerAndPage((manager, childIds) =>
        actingForChildren(this.app, manager, childIds, (allowed) => this.app.kyc.customersOfMany(allowed)),
      ),
    ));
  }

  /** A page of a child's credentials, managed by its manager (ManagedProfile.apiCredentials). */
  get childCredentials() {
    return (this.#childCredentials ??= batching(
      perManagerAndPage((manager, childIds, page: ListPage) =>
        this.app.managedProfiles.listCredentialsOfChildren(manager.actorProfileId, childIds, page),
      ),
    ));
  }
}
