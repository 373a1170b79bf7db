-- CreateTable
CREATE TABLE "KycCase" (
    "id" UUID NOT NULL,
    "profileId" UUID NOT NULL,
    "corridor" TEXT NOT NULL,
    "customerType" TEXT NOT NULL,
    "providerCustomerId" UUID NOT NULL,
    "contactEmail" TEXT,
    "status" TEXT NOT NULL,
    "statusReason" TEXT,
    "method" TEXT,
    "submissionId" UUID,
    "pendingOutcome" TEXT,
    "pendingReason" TEXT,
    "decisionDelayMs" INTEGER,
    "decisionDueAt" TIMESTAMPTZ(3),
    "decidedAt" TIMESTAMPTZ(3),
    "taxId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "KycCase_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "KycCase_submissionId_idx" ON "KycCase"("submissionId");

-- CreateIndex
CREATE UNIQUE INDEX "KycCase_profileId_corridor_customerType_key" ON "KycCase"("profileId", "corridor", "customerType");
