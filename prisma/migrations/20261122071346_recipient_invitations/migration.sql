-- CreateTable
CREATE TABLE "RecipientInvitation" (
    "id" UUID NOT NULL,
    "senderProfileId" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "relationship" TEXT NOT NULL,
    "codeHash" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "archivedAt" TIMESTAMPTZ(3),
    "acceptedAt" TIMESTAMPTZ(3),
    "recipientProfileId" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "RecipientInvitation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "RecipientInvitation_codeHash_key" ON "RecipientInvitation"("codeHash");

-- CreateIndex
CREATE INDEX "RecipientInvitation_recipientProfileId_idx" ON "RecipientInvitation"("recipientProfileId");

-- CreateIndex
CREATE UNIQUE INDEX "RecipientInvitation_senderProfileId_email_key" ON "RecipientInvitation"("senderProfileId", "email");
