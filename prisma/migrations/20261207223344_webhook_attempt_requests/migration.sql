-- AlterTable
ALTER TABLE "WebhookDeliveryAttempt" ADD COLUMN     "requestBody" TEXT,
ADD COLUMN     "requestBodyTruncated" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "requestHeaders" TEXT;
