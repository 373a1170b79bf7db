-- AlterTable
ALTER TABLE "RampEvent" ALTER COLUMN "rampId" DROP NOT NULL;
