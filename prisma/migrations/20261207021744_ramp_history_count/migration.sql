-- CreateTable
CREATE TABLE "RampHistoryCount" (
    "profileId" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "RampHistoryCount_pkey" PRIMARY KEY ("profileId","status")
);

-- The counts of the ramps there are.
INSERT INTO "RampHistoryCount" ("profileId", "status", "count")
SELECT "profileId", "status", COUNT(*) FROM "Ramp" WHERE "currentPhase" <> 'initial' GROUP BY "profileId", "status";

-- Kept by every statement that changes a ramp, in its transaction: a ramp counts in its profile's history, under its
-- status, once it left its initial phase. The upsert locks the count's row until the transaction ends.
CREATE FUNCTION "ramp_history_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD."profileId" = NEW."profileId" AND OLD."status" = NEW."status"
    AND (OLD."currentPhase" = 'initial') = (NEW."currentPhase" = 'initial') THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD."currentPhase" <> 'initial' THEN
    UPDATE "RampHistoryCount" SET "count" = "count" - 1 WHERE "profileId" = OLD."profileId" AND "status" = OLD."status";
  END IF;
  IF TG_OP <> 'DELETE' AND NEW."currentPhase" <> 'initial' THEN
    INSERT INTO "RampHistoryCount" ("profileId", "status", "count") VALUES (NEW."profileId", NEW."status", 1)
    ON CONFLICT ("profileId", "status") DO UPDATE SET "count" = "RampHistoryCount"."count" + 1;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "Ramp_history_count" AFTER INSERT OR DELETE OR UPDATE OF "profileId", "currentPhase", "status" ON "Ramp"
FOR EACH ROW EXECUTE FUNCTION "ramp_history_count"();
