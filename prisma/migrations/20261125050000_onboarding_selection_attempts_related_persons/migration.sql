-- AlterTable
ALTER TABLE "KycCase" ADD COLUMN     "relatedPersonIds" TEXT;

-- CreateTable
CREATE TABLE "CustomerEntitySelection" (
    "profileId" UUID NOT NULL,
    "customerType" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CustomerEntitySelection_pkey" PRIMARY KEY ("profileId")
);

-- CreateTable
CREATE TABLE "InitialBrazilKycAttempt" (
    "id" UUID NOT NULL,
    "profileId" UUID NOT NULL,
    "actorProfileId" UUID NOT NULL,
    "quoteId" UUID NOT NULL,
    "sessionId" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InitialBrazilKycAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "InitialBrazilKycAttempt_profileId_createdAt_idx" ON "InitialBrazilKycAttempt"("profileId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "InitialBrazilKycAttempt_quoteId_profileId_key" ON "InitialBrazilKycAttempt"("quoteId", "profileId");
