-- CreateTable
CREATE TABLE "FiatAccount" (
    "id" UUID NOT NULL,
    "profileId" UUID NOT NULL,
    "actorProfileId" UUID NOT NULL,
    "country" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "details" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deletedAt" TIMESTAMPTZ(3),

    CONSTRAINT "FiatAccount_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "FiatAccount_profileId_country_createdAt_idx" ON "FiatAccount"("profileId", "country", "createdAt");
