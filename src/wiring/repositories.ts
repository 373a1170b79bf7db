import { AdminRepository } from "../admin/repo.js";
import { AuditRepository } from "../audit/repo.js";
import { CredentialRepository } from "../credentials/repo.js";
import type { DataHandles } from "../db/repository.js";
import { FiatAccountRepository } from "../fiat-accounts/repo.js";
import { IdempotencyRepository } from "../idempotency/repo.js";
import { IdentityRepository } from "../identity/repo.js";
import { KycRepository } from "../kyc/repo.js";
import { ManagedProfileRepository } from "../managed-profiles/repo.js";
import { OnboardingRepository } from "../onboarding/repo.js";
import { PartnerCallbackRepository } from "../partner-callbacks/repo.js";
import { ProfileRepository } from "../profiles/repo.js";
import { QuoteRepository } from "../quotes/repo.js";
import { RampRepository } from "../ramps/repo.js";
import { RecipientRepository } from "../recipients/repo.js";
import { UploadRepository } from "../uploads/repo.js";
import { WidgetSessionRepository } from "../widget-sessions/repo.js";

/** Each module's repository on the database's handles: the one way its services reach their data. */
export function openRepositories(database: DataHandles) {
  return {
    admin: new AdminRepository(database),
    audit: new AuditRepository(database),
    credentials: new CredentialRepository(database),
    fiatAccounts: new FiatAccountRepository(database),
    idempotency: new IdempotencyRepository(database),
    identity: new IdentityRepository(database),
    kyc: new KycRepository(database),
    managedProfiles: new ManagedProfileRepository(database),
    onboarding: new OnboardingRepository(database),
    partnerCallbacks: new PartnerCallbackRepository(database),
    profiles: new ProfileRepository(database),
    quotes: new QuoteRepository(database),
    ramps: new RampRepository(database),
    recipients: new RecipientRepository(database),
    uploads: new UploadRepository(database),
    widgetSessions: new WidgetSessionRepository(database),
  };
}
