-- CreateTable
CREATE TABLE "PartnerCommand" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "rampId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "partner" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "partnerOrderId" TEXT,
    "answer" TEXT,
    "claimedUntil" DATETIME NOT NULL,
    "attempts" INTEGER NOT NULL,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settledAt" DATETIME,
    CONSTRAINT "PartnerCommand_rampId_fkey" FOREIGN KEY ("rampId") REFERENCES "Ramp" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "PartnerCommand_reference_key" ON "PartnerCommand"("reference");

-- CreateIndex: the claim. One command of each kind per ramp, so a second send of it cannot begin.
CREATE UNIQUE INDEX "PartnerCommand_rampId_kind_key" ON "PartnerCommand"("rampId", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "PartnerCommand_partner_partnerOrderId_key" ON "PartnerCommand"("partner", "partnerOrderId");
