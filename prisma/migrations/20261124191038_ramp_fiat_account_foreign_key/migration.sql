-- AddForeignKey
ALTER TABLE "Ramp" ADD CONSTRAINT "Ramp_fiatAccountId_fkey" FOREIGN KEY ("fiatAccountId") REFERENCES "FiatAccount"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
