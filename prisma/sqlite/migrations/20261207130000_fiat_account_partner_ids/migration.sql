-- Accounts created before accounts were registered at the partner exist only here: no partner payout can name
-- them, so they are retired (deleted, as a subject deletes one: ramps keep naming them). Every usable account is
-- then at the partner, with both ids.
UPDATE "FiatAccount" SET "deletedAt" = strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now') WHERE "deletedAt" IS NULL;

-- AlterTable
ALTER TABLE "FiatAccount" ADD COLUMN "partnerAccountId" TEXT;
ALTER TABLE "FiatAccount" ADD COLUMN "partnerCustomerId" TEXT;
