import type { Queryable } from "../db/tx.js";
import type { Prisma } from "../generated/prisma/client.js";

export function insertWidgetSession(db: Queryable, data: Prisma.WidgetSessionUncheckedCreateInput) {
  return db.widgetSession.create({ data, select: { id: true } });
}

/** A session the viewer may refer to: its own, or one nobody owns (public-key or anonymous widgets). */
export function findVisibleWidgetSession(db: Queryable, sessionId: string, viewerProfileId: string) {
  return db.widgetSession.findFirst({
    where: { id: sessionId, OR: [{ ownerProfileId: null }, { ownerProfileId: viewerProfileId }] },
    select: { id: true },
  });
}
