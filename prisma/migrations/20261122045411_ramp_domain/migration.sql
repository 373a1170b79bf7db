-- CreateTable
CREATE TABLE "Quote" (
    "id" UUID NOT NULL,
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
    "ownerProfileId" UUID,
    "credentialId" UUID,
    "partnerId" UUID,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "consumedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Quote_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WidgetSession" (
    "id" UUID NOT NULL,
    "ownerProfileId" UUID,
    "credentialId" UUID,
    "partnerId" UUID,
    "quoteId" UUID,
    "externalSessionId" TEXT,
    "parameters" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WidgetSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Ramp" (
    "id" UUID NOT NULL,
    "quoteId" UUID NOT NULL,
    "profileId" UUID NOT NULL,
    "actorProfileId" UUID NOT NULL,
    "credentialId" UUID,
    "type" TEXT NOT NULL,
    "corridor" TEXT NOT NULL,
    "currentPhase" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "walletAddress" TEXT,
    "fiatAccountId" UUID,
    "sessionId" UUID,
    "additionalData" TEXT NOT NULL DEFAULT '{}',
    "presignedTxs" TEXT NOT NULL DEFAULT '[]',
    "unsignedTxs" TEXT NOT NULL DEFAULT '[]',
    "depositQrCode" TEXT,
    "transactionHash" TEXT,
    "startDeadline" TIMESTAMPTZ(3) NOT NULL,
    "startedAt" TIMESTAMPTZ(3),
    "nextStepAt" TIMESTAMPTZ(3),
    "retries" INTEGER NOT NULL DEFAULT 0,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Ramp_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RampErrorLog" (
    "id" UUID NOT NULL,
    "rampId" UUID NOT NULL,
    "phase" TEXT NOT NULL,
    "error" TEXT NOT NULL,
    "details" TEXT,
    "recoverable" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RampErrorLog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RampEvent" (
    "sequence" SERIAL NOT NULL,
    "eventId" UUID NOT NULL,
    "rampId" UUID NOT NULL,
    "eventType" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RampEvent_pkey" PRIMARY KEY ("sequence")
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

-- AddForeignKey
ALTER TABLE "Ramp" ADD CONSTRAINT "Ramp_quoteId_fkey" FOREIGN KEY ("quoteId") REFERENCES "Quote"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RampErrorLog" ADD CONSTRAINT "RampErrorLog_rampId_fkey" FOREIGN KEY ("rampId") REFERENCES "Ramp"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RampEvent" ADD CONSTRAINT "RampEvent_rampId_fkey" FOREIGN KEY ("rampId") REFERENCES "Ramp"("id") ON DELETE CASCADE ON UPDATE CASCADE;
