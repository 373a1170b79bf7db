-- CreateTable
CREATE TABLE "SigningKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "publicKey" TEXT NOT NULL,
    "encryptedPrivateKey" TEXT NOT NULL,
    "activeSlot" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retiredAt" DATETIME
);

-- CreateTable
CREATE TABLE "WebhookSubscription" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ownerProfileId" TEXT NOT NULL,
    "credentialId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "quoteId" TEXT,
    "sessionId" TEXT,
    "events" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "consecutiveFailures" INTEGER NOT NULL DEFAULT 0,
    "disabledAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "SigningKey_activeSlot_key" ON "SigningKey"("activeSlot");

-- CreateIndex
CREATE INDEX "WebhookSubscription_ownerProfileId_createdAt_idx" ON "WebhookSubscription"("ownerProfileId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookSubscription_quoteId_idx" ON "WebhookSubscription"("quoteId");

-- CreateIndex
CREATE INDEX "WebhookSubscription_sessionId_idx" ON "WebhookSubscription"("sessionId");
