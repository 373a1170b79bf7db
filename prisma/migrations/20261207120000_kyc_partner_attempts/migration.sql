-- The sandbox decided at submission and stored its decision to take effect later: a decision already known is
-- applied now, since nothing will observe it once the columns are gone.
UPDATE "KycCase" SET "status" = "pendingOutcome", "statusReason" = "pendingReason", "decidedAt" = "decisionDueAt"
WHERE "pendingOutcome" IS NOT NULL AND "decisionDueAt" IS NOT NULL;

-- AlterTable
ALTER TABLE "KycCase" DROP COLUMN "decisionDelayMs",
DROP COLUMN "decisionDueAt",
DROP COLUMN "pendingOutcome",
DROP COLUMN "pendingReason",
ADD COLUMN     "hostedFlowUrl" TEXT,
ADD COLUMN     "nextCheckAt" TIMESTAMPTZ(3),
ADD COLUMN     "partnerAttemptId" TEXT;

-- CreateIndex
CREATE INDEX "KycCase_partnerAttemptId_idx" ON "KycCase"("partnerAttemptId");

-- CreateIndex
CREATE INDEX "KycCase_nextCheckAt_idx" ON "KycCase"("nextCheckAt");
