-- The sandbox decided at submission and stored its decision to take effect later: a decision already known is
-- applied now, since nothing will observe it once the columns are gone.
UPDATE "KycCase" SET "status" = "pendingOutcome", "statusReason" = "pendingReason", "decidedAt" = "decisionDueAt"
WHERE "pendingOutcome" IS NOT NULL AND "decisionDueAt" IS NOT NULL;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_KycCase" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "profileId" TEXT NOT NULL,
    "corridor" TEXT NOT NULL,
    "customerType" TEXT NOT NULL,
    "providerCustomerId" TEXT NOT NULL,
    "contactEmail" TEXT,
    "status" TEXT NOT NULL,
    "statusReason" TEXT,
    "method" TEXT,
    "submissionId" TEXT,
    "partnerAttemptId" TEXT,
    "hostedFlowUrl" TEXT,
    "nextCheckAt" DATETIME,
    "decidedAt" DATETIME,
    "taxId" TEXT,
    "relatedPersonIds" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_KycCase" ("contactEmail", "corridor", "createdAt", "customerType", "decidedAt", "id", "method", "profileId", "providerCustomerId", "relatedPersonIds", "status", "statusReason", "submissionId", "taxId", "updatedAt") SELECT "contactEmail", "corridor", "createdAt", "customerType", "decidedAt", "id", "method", "profileId", "providerCustomerId", "relatedPersonIds", "status", "statusReason", "submissionId", "taxId", "updatedAt" FROM "KycCase";
DROP TABLE "KycCase";
ALTER TABLE "new_KycCase" RENAME TO "KycCase";
CREATE INDEX "KycCase_submissionId_idx" ON "KycCase"("submissionId");
CREATE INDEX "KycCase_partnerAttemptId_idx" ON "KycCase"("partnerAttemptId");
CREATE INDEX "KycCase_nextCheckAt_idx" ON "KycCase"("nextCheckAt");
CREATE UNIQUE INDEX "KycCase_profileId_corridor_customerType_key" ON "KycCase"("profileId", "corridor", "customerType");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
