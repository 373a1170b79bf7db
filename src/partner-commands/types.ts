/**
 * - `intended`: claimed and about to be sent, or being sent; a claim that lapsed here means its holder stopped
 *   mid-way, and the partner may have the order.
 * - `accepted`: the partner made the order (its id and answer are stored). Final.
 * - `refused`: the partner refused it deterministically; nothing was created. Final.
 * - `unknown`: sent without a certain answer (timeout, reset, 5xx, 408/409/429): looked up before anything else.
 */
export type CommandState = "intended" | "accepted" | "refused" | "unknown";
