-- AlterTable
ALTER TABLE "Ramp" ADD COLUMN     "partnerOrderId" TEXT,
ADD COLUMN     "partnerPayment" TEXT;

-- CreateIndex
CREATE INDEX "Ramp_partnerOrderId_idx" ON "Ramp"("partnerOrderId");
