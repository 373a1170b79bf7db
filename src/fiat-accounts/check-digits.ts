/**
 * The check digits and lengths of the domestic corridors' account and tax numbers: ABA routing numbers, CLABE,
 * CBU/CVU, CUIT/CUIL and NIT. Each `…Problems` takes digits only and says what is wrong, one message per failed rule.
 */

const digitsOf = (value: string) => [...value].map(Number);
const weightedSum = (digits: number[], weights: readonly number[]) =>
  digits.reduce((sum, digit, index) => sum + digit * weights[index % weights.length]!, 0);
/** The "10 minus the last digit of the weighted sum" check digit of CLABE and CBU. */
const tensComplement = (digits: number[], weights: readonly number[]) =>
  (10 - (weightedSum(digits, weights) % 10)) % 10;

/** Federal Reserve routing symbols: banks (00–12), thrifts (21–32), electronic (61–72), traveler's checks (80). */
const ABA_PREFIX = /^(0\d|1[0-2]|2[1-9]|3[0-2]|6[1-9]|7[0-2]|80)/;
export function abaProblems(digits: string): string[] {
  if (digits.length !== 9) return [`must be 9 digits (got ${digits.length})`];
  if (/^0+$/.test(digits)) return ["is not a valid ABA routing number (all zeros)"];
  const problems: string[] = [];
  if (!ABA_PREFIX.test(digits)) {
    problems.push(
      `is not a valid ABA routing number: ${digits.slice(0, 2)} is not a Federal Reserve routing symbol (00–12, 21–32, 61–72, 80)`,
    );
  }
  if (weightedSum(digitsOf(digits), [3, 7, 1]) % 10 !== 0)
    problems.push("is not a valid ABA routing number (checksum)");
  return problems;
}

const CLABE_WEIGHTS = [3, 7, 1] as const;
export function clabeProblems(digits: string): string[] {
  if (digits.length !== 18) return [`must be an 18-digit CLABE (got ${digits.length} digits)`];
  const expected = tensComplement(digitsOf(digits.slice(0, 17)), CLABE_WEIGHTS);
  return Number(digits[17]) === expected ? [] : [`is not a valid CLABE: the check digit should be ${expected}`];
}

const CBU_BANK_BLOCK_WEIGHTS = [7, 1, 3, 9, 7, 1, 3] as const;
const CBU_ACCOUNT_BLOCK_WEIGHTS = [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3] as const;
/** CBU and CVU share the layout: bank (3) + branch (4) + check, then account (13) + check. */
export function cbuProblems(digits: string): string[] {
  if (digits.length !== 22) return [`must be a 22-digit CBU or CVU (got ${digits.length} digits)`];
  const problems: string[] = [];
  const bankCheck = tensComplement(digitsOf(digits.slice(0, 7)), CBU_BANK_BLOCK_WEIGHTS);
  if (Number(digits[7]) !== bankCheck)
    problems.push(`is not a valid CBU/CVU: the check digit of the bank block (8th digit) should be ${bankCheck}`);
  const accountCheck = tensComplement(digitsOf(digits.slice(8, 21)), CBU_ACCOUNT_BLOCK_WEIGHTS);
  if (Number(digits[21]) !== accountCheck)
    problems.push(
      `is not a valid CBU/CVU: the check digit of the account block (22nd digit) should be ${accountCheck}`,
    );
  return problems;
}

const CUIT_PREFIXES = ["20", "23", "24", "27", "30", "33", "34"] as const;
const CUIT_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;
export function cuitProblems(digits: string): string[] {
  if (digits.length !== 11) return [`must be 11 digits (got ${digits.length})`];
  const problems: string[] = [];
  if (!(CUIT_PREFIXES as readonly string[]).includes(digits.slice(0, 2))) {
    problems.push(`is not a valid CUIT/CUIL: it must start with ${CUIT_PREFIXES.join(", ")}`);
  }
  const remainder = 11 - (weightedSum(digitsOf(digits.slice(0, 10)), CUIT_WEIGHTS) % 11);
  // 11 means 0; 10 has no digit (AFIP issues such numbers under prefix 23 or 33 instead).
  const expected = remainder === 11 ? 0 : remainder;
  if (expected === 10) problems.push("is not a valid CUIT/CUIL: no check digit fits these first 10 digits");
  else if (Number(digits[10]) !== expected)
    problems.push(`is not a valid CUIT/CUIL: the check digit should be ${expected}`);
  return problems;
}

/** DIAN's weights, applied from the rightmost digit of the NIT's body. */
const NIT_WEIGHTS = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71] as const;
export function nitProblems(digits: string): string[] {
  if (digits.length !== 10)
    return [`must be a NIT of 9 digits and a check digit, such as 900123456-7 (got ${digits.length} digits)`];
  const remainder = weightedSum(digitsOf(digits.slice(0, 9)).reverse(), NIT_WEIGHTS) % 11;
  const expected = remainder < 2 ? remainder : 11 - remainder;
  return Number(digits[9]) === expected ? [] : [`is not a valid NIT: the check digit should be ${expected}`];
}

export const onlyDigits = (value: string) => /^\d+$/.test(value);

/** 9 digits, weights 3-7-1 sum to a multiple of 10, not all zeros, a Federal Reserve routing symbol prefix. */
export function isValidAbaRoutingNumber(value: string): boolean {
  return onlyDigits(value) && abaProblems(value).length === 0;
}

/** An 18-digit CLABE whose last digit matches weights 3, 7, 1 over the first 17. */
export function isValidClabe(value: string): boolean {
  return onlyDigits(value) && clabeProblems(value).length === 0;
}

/** A 22-digit CBU or CVU with both block check digits right. */
export function isValidCbu(value: string): boolean {
  return onlyDigits(value) && cbuProblems(value).length === 0;
}

/** An 11-digit CUIT/CUIL: a known prefix and the mod-11 check digit. */
export function isValidCuit(value: string): boolean {
  return onlyDigits(value) && cuitProblems(value).length === 0;
}

/** A Colombian NIT as 10 digits or "#########-#", with DIAN's check digit. */
export function isValidColombianNit(value: string): boolean {
  return /^(\d{10}|\d{9}-\d)$/.test(value) && nitProblems(value.replace("-", "")).length === 0;
}
