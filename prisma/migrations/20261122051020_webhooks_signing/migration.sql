-- CreateTable
CREATE TABLE "SigningKey" (
    "id" UUID NOT NULL,
    "publicKey" TEXT NOT NULL,
    "encryptedPrivateKey" TEXT NOT NULL,
    "activeSlot" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retiredAt" TIMESTAMPTZ(3),

    CONSTRAINT "SigningKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookSubscription" (
    "id" UUID NOT NULL,
    "ownerProfileId" UUID NOT NULL,
    "credentialId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "quoteId" UUID,
    "sessionId" UUID,
    "events" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "consecutiveFailures" INTEGER NOT NULL DEFAULT 0,
    "disabledAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "WebhookSubscription_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SigningKey_activeSlot_key" ON "SigningKey"("activeSlot");

-- CreateIndex
CREATE INDEX "WebhookSubscription_ownerProfileId_createdAt_idx" ON "WebhookSubscription"("ownerProfileId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookSubscription_quoteId_idx" ON "WebhookSubscription"("quoteId");

-- CreateIndex
CREATE INDEX "WebhookSubscription_sessionId_idx" ON "WebhookSubscription"("sessionId");
