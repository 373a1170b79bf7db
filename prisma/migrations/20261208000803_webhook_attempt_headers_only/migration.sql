-- AlterTable
ALTER TABLE "WebhookDeliveryAttempt" DROP COLUMN "requestBody",
DROP COLUMN "requestBodyTruncated";
