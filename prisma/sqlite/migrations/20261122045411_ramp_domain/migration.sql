-- CreateTable
CREATE TABLE "Quote" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "rampType" TEXT NOT NULL,
    "from" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "paymentMethod" TEXT NOT NULL,
    "corridor" TEXT NOT NULL,
    "countryCode" TEXT,
    "inputAmount" TEXT NOT NULL,
    "inputCurrency" TEXT NOT NULL,
    "outputAmount" TEXT NOT NULL,
    "outputCurrency" TEXT NOT NULL,
    "feeCurrency" TEXT NOT NULL,
    "networkFeeFiat" TEXT NOT NULL,
    "networkFeeUSD" TEXT NOT NULL,
    "anchorFeeFiat" TEXT NOT NULL,
    "anchorFeeUSD" TEXT NOT NULL,
    "vortexFeeFiat" TEXT NOT NULL,
    "vortexFeeUSD" TEXT NOT NULL,
    "partnerFeeFiat" TEXT NOT NULL,
    "partnerFeeUSD" TEXT NOT NULL,
    "processingFeeFiat" TEXT NOT NULL,
    "processingFeeUSD" TEXT NOT NULL,
    "totalFeeFiat" TEXT NOT NULL,
    "totalFeeUSD" TEXT NOT NULL,
    "pricingProfile" TEXT NOT NULL,
    "ownerProfileId" TEXT,
    "credentialId" TEXT,
    "partnerId" TEXT,
    "expiresAt" DATETIME NOT NULL,
    "consumedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "WidgetSession" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ownerProfileId" TEXT,
    "credentialId" TEXT,
    "partnerId" TEXT,
    "quoteId" TEXT,
    "externalSessionId" TEXT,
    "parameters" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Ramp" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "quoteId" TEXT NOT NULL,
    "profileId" TEXT NOT NULL,
    "actorProfileId" TEXT NOT NULL,
    "credentialId" TEXT,
    "type" TEXT NOT NULL,
    "corridor" TEXT NOT NULL,
    "currentPhase" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "walletAddress" TEXT,
    "fiatAccountId" TEXT,
    "sessionId" TEXT,
    "additionalData" TEXT NOT NULL DEFAULT '{}',
    "presignedTxs" TEXT NOT NULL DEFAULT '[]',
    "unsignedTxs" TEXT NOT NULL DEFAULT '[]',
    "depositQrCode" TEXT,
    "transactionHash" TEXT,
    "startDeadline" DATETIME NOT NULL,
    "startedAt" DATETIME,
    "nextStepAt" DATETIME,
    "retries" INTEGER NOT NULL DEFAULT 0,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Ramp_quoteId_fkey" FOREIGN KEY ("quoteId") REFERENCES "Quote" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RampErrorLog" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "rampId" TEXT NOT NULL,
    "phase" TEXT NOT NULL,
    "error" TEXT NOT NULL,
    "details" TEXT,
    "recoverable" BOOLEAN NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RampErrorLog_rampId_fkey" FOREIGN KEY ("rampId") REFERENCES "Ramp" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RampEvent" (
    "sequence" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "eventId" TEXT NOT NULL,
    "rampId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RampEvent_rampId_fkey" FOREIGN KEY ("rampId") REFERENCES "Ramp" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Quote_ownerProfileId_idx" ON "Quote"("ownerProfileId");

-- CreateIndex
CREATE UNIQUE INDEX "Ramp_quoteId_key" ON "Ramp"("quoteId");

-- CreateIndex
CREATE INDEX "Ramp_profileId_createdAt_idx" ON "Ramp"("profileId", "createdAt");

-- CreateIndex
CREATE INDEX "Ramp_nextStepAt_idx" ON "Ramp"("nextStepAt");

-- CreateIndex
CREATE INDEX "RampErrorLog_rampId_createdAt_idx" ON "RampErrorLog"("rampId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "RampEvent_eventId_key" ON "RampEvent"("eventId");

-- CreateIndex
CREATE INDEX "RampEvent_rampId_sequence_idx" ON "RampEvent"("rampId", "sequence");
