-- AlterTable
ALTER TABLE "Ramp" ADD COLUMN "partnerCustomerId" TEXT;
