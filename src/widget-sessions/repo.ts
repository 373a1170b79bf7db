import type { Prisma } from "../generated/prisma/client.js";
import { Repository } from "../db/repository.js";

/** Widget sessions: what the widget-session service reads and stores. */
export class WidgetSessionRepository extends Repository {
  insertWidgetSession(data: Prisma.WidgetSessionUncheckedCreateInput) {
    return this.db.widgetSession.create({ data, select: { id: true } });
  }

  /** A session the viewer may refer to: its own, or one nobody owns (public-key or anonymous widgets). */
  findVisibleWidgetSession(sessionId: string, viewerProfileId: string) {
    return this.db.widgetSession.findFirst({
      where: { id: sessionId, OR: [{ ownerProfileId: null }, { ownerProfileId: viewerProfileId }] },
      select: { id: true },
    });
  }
}
