-- CreateTable
CREATE TABLE "RampHistoryCount" (
    "profileId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    PRIMARY KEY ("profileId", "status")
);

-- The counts of the ramps there are.
INSERT INTO "RampHistoryCount" ("profileId", "status", "count")
SELECT "profileId", "status", COUNT(*) FROM "Ramp" WHERE "currentPhase" <> 'initial' GROUP BY "profileId", "status";

-- Kept by every statement that changes a ramp, in its transaction: a ramp counts in its profile's history, under its
-- status, once it left its initial phase.
CREATE TRIGGER "Ramp_history_count_insert" AFTER INSERT ON "Ramp" WHEN NEW."currentPhase" <> 'initial'
BEGIN
  INSERT INTO "RampHistoryCount" ("profileId", "status", "count") VALUES (NEW."profileId", NEW."status", 1)
  ON CONFLICT ("profileId", "status") DO UPDATE SET "count" = "count" + 1;
END;

CREATE TRIGGER "Ramp_history_count_delete" AFTER DELETE ON "Ramp" WHEN OLD."currentPhase" <> 'initial'
BEGIN
  UPDATE "RampHistoryCount" SET "count" = "count" - 1 WHERE "profileId" = OLD."profileId" AND "status" = OLD."status";
END;

CREATE TRIGGER "Ramp_history_count_update" AFTER UPDATE OF "profileId", "currentPhase", "status" ON "Ramp"
WHEN OLD."profileId" IS NOT NEW."profileId" OR OLD."status" IS NOT NEW."status"
  OR (OLD."currentPhase" = 'initial') IS NOT (NEW."currentPhase" = 'initial')
BEGIN
  UPDATE "RampHistoryCount" SET "count" = "count" - 1
  WHERE OLD."currentPhase" <> 'initial' AND "profileId" = OLD."profileId" AND "status" = OLD."status";
  INSERT INTO "RampHistoryCount" ("profileId", "status", "count")
  SELECT NEW."profileId", NEW."status", 1 WHERE NEW."currentPhase" <> 'initial'
  ON CONFLICT ("profileId", "status") DO UPDATE SET "count" = "count" + 1;
END;
