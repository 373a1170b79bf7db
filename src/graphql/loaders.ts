import DataLoader from "dataloader";
import type { App } from "../app.js";
import type { ProfileView } from "../profiles/service.js";
import type { RampErrorView } from "../ramps/types.js";

/** Batch loaders of one GraphQL operation: a list of N items costs one query per field, not N. */
export interface GraphQLLoaders {
  /** Error logs by ramp id; only for ramps a resolver already read as the caller's. */
  rampErrors: DataLoader<string, RampErrorView[]>;
  /** Profiles by id; only for ids the caller speaks for (`me`). */
  profile: DataLoader<string, ProfileView>;
}

/**
 * New loaders for one request (or one subscription). They batch but do not cache: a subscription's
 * context lives as long as its stream, and a cached error log would go stale there.
 */
export function createLoaders(app: App): GraphQLLoaders {
  return {
    rampErrors: new DataLoader(
      async (rampIds) => {
        const byRamp = await app.ramps.errorsOfRamps(rampIds);
        return rampIds.map((id) => byRamp.get(id) ?? []);
      },
      { cache: false },
    ),
    profile: new DataLoader((profileIds) => app.profiles.getMany(profileIds), { cache: false }),
  };
}
