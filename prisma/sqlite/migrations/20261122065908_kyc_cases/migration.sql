-- CreateTable
CREATE TABLE "KycCase" (
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
    "pendingOutcome" TEXT,
    "pendingReason" TEXT,
    "decisionDelayMs" INTEGER,
    "decisionDueAt" DATETIME,
    "decidedAt" DATETIME,
    "taxId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "KycCase_submissionId_idx" ON "KycCase"("submissionId");

-- CreateIndex
CREATE UNIQUE INDEX "KycCase_profileId_corridor_customerType_key" ON "KycCase"("profileId", "corridor", "customerType");
