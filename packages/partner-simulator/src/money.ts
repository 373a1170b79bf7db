/** Amounts are decimal strings on both partners' wires. */
export function parseAmount(value: unknown): number | undefined {
  if (typeof value !== "string" || !/^\d+(\.\d+)?$/.test(value)) return undefined;
  return Number(value);
}

/** Cut (not rounded) to `decimals`, once the floating-point noise below a millionth of the last digit is gone. */
export function formatAmount(value: number, decimals = 2): string {
  const factor = 10 ** decimals;
  return (Math.floor(Math.round(value * factor * 1e6) / 1e6) / factor).toFixed(decimals);
}

/** The sandbox triggers read the two digits after the point: `100.66` fails, `100.77` meets one 503. */
export function hasFraction(amount: string, digits: "66" | "77"): boolean {
  return (amount.split(".")[1] ?? "").padEnd(2, "0").slice(0, 2) === digits;
}

/** The sandbox's KYC rejection trigger on a name (spec, triggers). */
export function nameRejects(...names: unknown[]): boolean {
  return names.some((name) => typeof name === "string" && name.toLowerCase().includes("reject"));
}

export function emailRejects(email: unknown): boolean {
  return typeof email === "string" && (email.split("@")[0] ?? "").includes("+kyc-rejected");
}
