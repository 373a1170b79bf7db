-- The service fee takes the project's own name; the reference's vortexFee* stays in the REST shapes alone.
ALTER TABLE "Quote" RENAME COLUMN "vortexFeeFiat" TO "serviceFeeFiat";
ALTER TABLE "Quote" RENAME COLUMN "vortexFeeUSD" TO "serviceFeeUSD";
