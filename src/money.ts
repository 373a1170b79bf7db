import { Decimal } from "decimal.js";

/**
 * Decimal arithmetic for every amount: enough significant digits that no supported amount is ever
 * rounded implicitly, so the only roundings are the explicit ones below, to a currency's digits.
 */
export const Money = Decimal.clone({ precision: 80, toExpNeg: -80, toExpPos: 80 });
export type Money = Decimal;

/** A caller's amount: digits with an optional fraction, no sign, exponent or grouping. */
export const AMOUNT_PATTERN = /^(0|[1-9]\d{0,29})(\.\d{1,30})?$/;

export const money = (value: string | number) => new Money(value);

/** Fees are rounded up to the currency's digits: the service never charges less than it quoted. */
export const roundFee = (value: Decimal, decimals: number) => value.toDecimalPlaces(decimals, Decimal.ROUND_UP);
/** Amounts paid out are rounded down: the service never promises more than it delivers. */
export const roundPayout = (value: Decimal, decimals: number) => value.toDecimalPlaces(decimals, Decimal.ROUND_DOWN);
/** Informational conversions (USD equivalents) round half up. */
export const roundDisplay = (value: Decimal, decimals: number) =>
  value.toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP);

// Amounts carry at most 30 digits after the point.
const SCALES = Array.from({ length: 31 }, (_, decimals) => ({
  up: money(`1e${decimals}`),
  down: money(`1e-${decimals}`),
}));

/**
 * `dividend / divisor` cut to `decimals` digits after the point: exact, where `dividedBy` would work out (and
 * round) 80 digits to keep a few. Rounding half up to fewer digits from it is exact too: the cut keeps every
 * digit up to the one that decides.
 */
export const quotientDown = (dividend: Decimal, divisor: Decimal, decimals: number) =>
  dividend.times(SCALES[decimals]!.up).dividedToIntegerBy(divisor).times(SCALES[decimals]!.down);

/**
 * The wire form: plain notation with exactly `decimals` digits after the point. A value already within them (an
 * amount rounded to its currency) is padded: `toFixed(decimals)` would round it again, a fifth of pricing's time.
 */
export function formatAmount(value: Decimal, decimals: number): string {
  const places = value.decimalPlaces();
  if (places > decimals) return value.toFixed(decimals);
  const padding = "0".repeat(decimals - places);
  return places === 0 && decimals > 0 ? `${value.toFixed()}.${padding}` : `${value.toFixed()}${padding}`;
}

/** Digits after the decimal point as written. */
export const fractionDigits = (amount: string) => amount.split(".")[1]?.length ?? 0;
