-- Accounts created before accounts were registered at the partner exist only here: no partner payout can name
-- them, so they are retired (deleted, as a subject deletes one: ramps keep naming them). Every usable account is
-- then at the partner, with both ids.
UPDATE "FiatAccount" SET "deletedAt" = CURRENT_TIMESTAMP WHERE "deletedAt" IS NULL;

-- AlterTable
ALTER TABLE "FiatAccount" ADD COLUMN     "partnerAccountId" TEXT,
ADD COLUMN     "partnerCustomerId" UUID;
