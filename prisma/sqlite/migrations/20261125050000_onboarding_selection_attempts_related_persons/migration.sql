-- AlterTable
ALTER TABLE "KycCase" ADD COLUMN "relatedPersonIds" TEXT;

-- CreateTable
CREATE TABLE "CustomerEntitySelection" (
    "profileId" TEXT NOT NULL PRIMARY KEY,
    "customerType" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "InitialBrazilKycAttempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "profileId" TEXT NOT NULL,
    "actorProfileId" TEXT NOT NULL,
    "quoteId" TEXT NOT NULL,
    "sessionId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "InitialBrazilKycAttempt_profileId_createdAt_idx" ON "InitialBrazilKycAttempt"("profileId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "InitialBrazilKycAttempt_quoteId_profileId_key" ON "InitialBrazilKycAttempt"("quoteId", "profileId");
