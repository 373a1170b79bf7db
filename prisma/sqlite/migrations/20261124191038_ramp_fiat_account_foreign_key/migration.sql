-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Ramp" (
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
    CONSTRAINT "Ramp_quoteId_fkey" FOREIGN KEY ("quoteId") REFERENCES "Quote" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Ramp_fiatAccountId_fkey" FOREIGN KEY ("fiatAccountId") REFERENCES "FiatAccount" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Ramp" ("actorProfileId", "additionalData", "corridor", "createdAt", "credentialId", "currentPhase", "depositQrCode", "fiatAccountId", "id", "nextStepAt", "presignedTxs", "profileId", "quoteId", "retries", "revision", "sessionId", "startDeadline", "startedAt", "status", "transactionHash", "type", "unsignedTxs", "updatedAt", "walletAddress") SELECT "actorProfileId", "additionalData", "corridor", "createdAt", "credentialId", "currentPhase", "depositQrCode", "fiatAccountId", "id", "nextStepAt", "presignedTxs", "profileId", "quoteId", "retries", "revision", "sessionId", "startDeadline", "startedAt", "status", "transactionHash", "type", "unsignedTxs", "updatedAt", "walletAddress" FROM "Ramp";
DROP TABLE "Ramp";
ALTER TABLE "new_Ramp" RENAME TO "Ramp";
CREATE UNIQUE INDEX "Ramp_quoteId_key" ON "Ramp"("quoteId");
CREATE INDEX "Ramp_profileId_createdAt_idx" ON "Ramp"("profileId", "createdAt");
CREATE INDEX "Ramp_nextStepAt_idx" ON "Ramp"("nextStepAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
