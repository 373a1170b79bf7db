-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_WebhookDeliveryAttempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "deliveryId" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "statusCode" INTEGER,
    "error" TEXT,
    "requestHeaders" TEXT,
    CONSTRAINT "WebhookDeliveryAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_WebhookDeliveryAttempt" ("deliveryId", "durationMs", "error", "id", "requestHeaders", "startedAt", "statusCode") SELECT "deliveryId", "durationMs", "error", "id", "requestHeaders", "startedAt", "statusCode" FROM "WebhookDeliveryAttempt";
DROP TABLE "WebhookDeliveryAttempt";
ALTER TABLE "new_WebhookDeliveryAttempt" RENAME TO "WebhookDeliveryAttempt";
CREATE INDEX "WebhookDeliveryAttempt_deliveryId_startedAt_idx" ON "WebhookDeliveryAttempt"("deliveryId", "startedAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
