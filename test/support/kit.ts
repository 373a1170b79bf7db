import { expect } from "vitest";

/** An answer as both the in-process and the over-HTTP helpers return it. */
interface Answer<T = any> {
  status: number;
  body: T;
}

/** The body of an answer with `status` (200 unless said); otherwise fails, showing the body. */
export function ok<T = any>(response: Answer<T>, status = 200): T {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  return response.body;
}

/**
 * An error answer: its status and code from the one error table, in the envelope every error carries
 * (status, message, request id), and, when `field` is given, details that name it.
 */
export function expectError(response: Answer, status: number, code: string, field?: string): void {
  expect({ status: response.status, code: response.body?.error?.code }, JSON.stringify(response.body)).toEqual({
    status,
    code,
  });
  expect(response.body.error).toMatchObject({ status, message: expect.any(String), requestId: expect.any(String) });
  if (field) expect(response.body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
}

/** Reads until `done` holds for the value read; fails after `timeoutMs`, naming `what` and the last value. */
export async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what = "a condition",
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)?.slice(0, 2000)}`);
    await sleep(25);
  }
}

/** Reads until the value is defined, and returns it. */
export async function waitForDefined<T>(read: () => Promise<T | undefined>, what?: string): Promise<T> {
  return (await waitFor(read, (value) => value !== undefined, what)) as T;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
