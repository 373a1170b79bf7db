-- CreateTable
CREATE TABLE "PartnerCallback" (
    "id" UUID NOT NULL,
    "partner" TEXT NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "subjectKind" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "partnerStatus" TEXT NOT NULL,
    "partnerCustomerId" TEXT NOT NULL,
    "rawBody" TEXT NOT NULL,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "appliedAt" TIMESTAMPTZ(3),

    CONSTRAINT "PartnerCallback_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PartnerCallback_appliedAt_receivedAt_idx" ON "PartnerCallback"("appliedAt", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "PartnerCallback_partner_dedupeKey_key" ON "PartnerCallback"("partner", "dedupeKey");
