-- CreateTable
CREATE TABLE "PartnerCallback" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "partner" TEXT NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "subjectKind" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "partnerStatus" TEXT NOT NULL,
    "partnerCustomerId" TEXT NOT NULL,
    "rawBody" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "appliedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "PartnerCallback_appliedAt_receivedAt_idx" ON "PartnerCallback"("appliedAt", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "PartnerCallback_partner_dedupeKey_key" ON "PartnerCallback"("partner", "dedupeKey");
