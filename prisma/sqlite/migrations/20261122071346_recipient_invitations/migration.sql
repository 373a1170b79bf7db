-- CreateTable
CREATE TABLE "RecipientInvitation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "senderProfileId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "relationship" TEXT NOT NULL,
    "codeHash" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "archivedAt" DATETIME,
    "acceptedAt" DATETIME,
    "recipientProfileId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "RecipientInvitation_codeHash_key" ON "RecipientInvitation"("codeHash");

-- CreateIndex
CREATE INDEX "RecipientInvitation_recipientProfileId_idx" ON "RecipientInvitation"("recipientProfileId");

-- CreateIndex
CREATE UNIQUE INDEX "RecipientInvitation_senderProfileId_email_key" ON "RecipientInvitation"("senderProfileId", "email");
