import { randomUUID } from "node:crypto";
import type { ActingContext } from "../auth/delegation.js";
import { AppError } from "../errors.js";
import { ownerOf, type QuoteService } from "../quotes/service.js";
import { canonicalId } from "../validation.js";
import type { WidgetSessionRepository } from "./repo.js";
import type { WidgetSessionInput, WidgetSessionView } from "./types.js";

/** Widget sessions: what a hosted widget opens with; ramps and webhooks refer to them by id. */
export class WidgetSessionService {
  constructor(
    private readonly repository: WidgetSessionRepository,
    private readonly quotes: QuoteService,
    private readonly widgetBaseUrl: string,
  ) {}

  /** Whether the viewer may attach this session to a ramp (its own, or one nobody owns). */
  async isVisible(sessionId: string, viewerProfileId: string): Promise<boolean> {
    return (await this.repository.findVisibleWidgetSession(sessionId, viewerProfileId)) !== null;
  }

  async create(acting: ActingContext | null, parameters: WidgetSessionInput): Promise<WidgetSessionView> {
    const owner = ownerOf(acting);
    let quoteId: string | null = null;
    // The quote must be one the caller may see (NOT_FOUND otherwise).
    if (parameters.quoteId !== undefined) quoteId = (await this.quotes.get(acting, parameters.quoteId)).id;
    const id = randomUUID();
    await this.repository.insertWidgetSession({
      id,
      ownerProfileId: owner,
      credentialId: acting?.credentialId ?? null,
      partnerId: acting?.partnerId ?? null,
      quoteId,
      externalSessionId: parameters.externalSessionId ?? null,
      parameters: JSON.stringify(parameters),
    });
    const url = new URL(this.widgetBaseUrl);
    url.searchParams.set("sessionId", id);
    return { sessionId: id, url: url.toString() };
  }

  /** A session the subject may follow: its own or an unowned one; anything else is NOT_FOUND. */
  async requireVisible(acting: ActingContext, sessionId: string): Promise<string> {
    const id = canonicalId(sessionId);
    if (!id || !(await this.repository.findVisibleWidgetSession(id, acting.subjectProfileId)))
      throw new AppError("NOT_FOUND", "Widget session not found.");
    return id;
  }
}
