import { describe, expect, it } from "vitest";
import { AppError, type FieldIssue } from "../../src/errors.js";
import { FIAT_ACCOUNT_TYPES } from "../../src/reference-data/domestic.js";
import {
  ACCOUNT_TYPES_BY_COUNTRY,
  FIAT_ACCOUNT_COUNTRIES,
  shownAccountType,
  type FiatAccountCountry,
} from "../../src/fiat-accounts/rail-rules.js";
import { fiatAccountInput, maskAccountNumber, validateFiatAccount } from "../../src/fiat-accounts/rules.js";
import {
  isValidAbaRoutingNumber,
  isValidCbu,
  isValidClabe,
  isValidColombianNit,
  isValidCuit,
} from "../../src/fiat-accounts/check-digits.js";

/*
 * Valid numbers used below, each checked by hand here and by an independent Python computation:
 * - ABA 021000021: 3·(0+0+0) + 7·(2+0+2) + 1·(1+0+1) = 30 ≡ 0 (mod 10); prefix 02. 011000015: 7·2 + 6 = 20.
 * - CLABE 032180000118359719: weights 3,7,1 over the first 17 digits give
 *   0+21+2+3+56+0+0+0+0+3+7+8+9+35+9+21+7 = 181; (10 − 1) mod 10 = 9 = the 18th digit.
 * - CBU 2850590940090418135201: bank block 2850590|9: 2·7+8·1+5·3+0·9+5·7+9·1+0·3 = 81 → 9;
 *   account block 4009041813520|1: 4·3+0+0+9·1+0+4·9+1·7+8·1+1·3+3·9+5·7+2·1+0 = 139 → 1.
 * - CVU 0000003100010000000009: bank block 0000003|1 (3·3 = 9 → 1); account block 0001000000000|9 (1·1 → 9).
 * - CUIT 20-12345678-6: 2·5+0·4+1·3+2·2+3·7+4·6+5·5+6·4+7·3+8·2 = 148; 148 mod 11 = 5; 11 − 5 = 6.
 *   CUIL 27-17123456-0: the sum is a multiple of 11, so 11 − 0 = 11, which means 0.
 *   20-12345676-?: 11 − (sum mod 11) = 10, no digit fits (AFIP issues it as 23-12345676-9 instead).
 * - NIT 890903938-8: digits from the right times 3,7,13,17,19,23,29,37,41:
 *   8·3+3·7+9·13+3·17+0·19+9·23+0·29+9·37+8·41 = 1081; 1081 mod 11 = 3; 11 − 3 = 8.
 */
const ABA = "021000021";
const CLABE = "032180000118359719";
const CBU = "2850590940090418135201";
const CVU = "0000003100010000000009";
const CUIT = "20123456786";
const NIT = "8909039388";

const US_ACH = {
  type: "ACH",
  accountNumber: "123456789",
  accountName: "Ada Lovelace",
  accountType: "checking",
  routingNumber: ABA,
};
const US_WIRE = {
  ...US_ACH,
  type: "BANK_USA",
  beneficiaryStreet: "1 Main St",
  beneficiaryCity: "Springfield",
  beneficiaryState: "IL",
  beneficiaryPostalCode: "62701",
};
const MX_SPEI = { type: "SPEI", accountNumber: CLABE, accountName: "María López" };
const AR_COELSA = {
  type: "COELSA",
  accountNumber: CBU,
  accountName: "Juan Pérez",
  documentType: "CUIT",
  documentNumber: CUIT,
};
const CO_ACH = {
  type: "ACH",
  accountNumber: "123456789012",
  accountName: "Camila Gómez",
  accountType: "savings",
  accountBankCode: "1007",
  documentType: "CC",
  documentNumber: "1020304050",
};

/** The field-level details of a rejected body (and that it was rejected as VALIDATION_FAILED / 400). */
function rejection(country: FiatAccountCountry, body: unknown): FieldIssue[] {
  try {
    validateFiatAccount(country, body);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.status).toBe(400);
    return error.details ?? [];
  }
  throw new Error("the body was accepted");
}

describe("isValidAbaRoutingNumber", () => {
  it.each(["021000021", "011000015", "026009593", "122105278"])("accepts %s", (value) => {
    expect(isValidAbaRoutingNumber(value)).toBe(true);
  });
  it.each([
    ["021000022", "wrong checksum"],
    ["000000000", "all zeros, although the checksum holds"],
    ["02100002", "8 digits"],
    ["0210000210", "10 digits"],
    ["021-000-021", "separators (the predicate takes digits only)"],
    // 45 + a valid checksum: 3·(4+0+0) + 7·(5+0+0) + (0+0+3) = 50, but 45 is no routing symbol.
    ["450000003", "prefix outside the Federal Reserve ranges"],
  ])("rejects %s (%s)", (value) => {
    expect(isValidAbaRoutingNumber(value)).toBe(false);
  });
});

describe("isValidClabe", () => {
  it.each([CLABE, "002010077777777771", "014027000005555558"])("accepts %s", (value) => {
    expect(isValidClabe(value)).toBe(true);
  });
  it.each([
    ["032180000118359718", "wrong check digit"],
    ["03218000011835971", "17 digits"],
    ["0321800001183597190", "19 digits"],
    ["03218000011835971A", "a letter"],
  ])("rejects %s (%s)", (value) => {
    expect(isValidClabe(value)).toBe(false);
  });
});

describe("isValidCbu", () => {
  it.each([CBU, CVU])("accepts %s", (value) => {
    expect(isValidCbu(value)).toBe(true);
  });
  it.each([
    ["2850590840090418135201", "wrong bank block check digit"],
    ["2850590940090418135202", "wrong account block check digit"],
    ["285059094009041813520", "21 digits"],
  ])("rejects %s (%s)", (value) => {
    expect(isValidCbu(value)).toBe(false);
  });
});

describe("isValidCuit", () => {
  it.each([CUIT, "27171234560", "23123456769", "30709074241"])("accepts %s", (value) => {
    expect(isValidCuit(value)).toBe(true);
  });
  it.each([
    ["20123456787", "wrong check digit"],
    ["2012345676", "10 digits"],
    ["21123456782", "prefix 21 (the check digit 2 is right for it)"],
    ["20123456760", "no check digit fits (remainder 10)"],
  ])("rejects %s (%s)", (value) => {
    expect(isValidCuit(value)).toBe(false);
  });
});

describe("isValidColombianNit", () => {
  it.each([NIT, "890903938-8", "900123456-8", "8600343137"])("accepts %s", (value) => {
    expect(isValidColombianNit(value)).toBe(true);
  });
  it.each([
    ["8909039387", "wrong check digit"],
    ["89090393-8", "8 digits before the dash"],
    ["890.903.938-8", "dots (the predicate takes digits and one dash)"],
  ])("rejects %s (%s)", (value) => {
    expect(isValidColombianNit(value)).toBe(false);
  });
});

describe("maskAccountNumber", () => {
  it("shows only the last 4 characters behind a fixed mask", () => {
    expect(maskAccountNumber("123456789")).toBe("****6789");
    expect(maskAccountNumber(CLABE)).toBe("****9719");
  });
  it("shows nothing of a number of 4 characters or fewer (the mask would reveal it whole)", () => {
    expect(maskAccountNumber("1234")).toBe("****");
    expect(maskAccountNumber("")).toBe("****");
  });
});

describe("ACCOUNT_TYPES_BY_COUNTRY", () => {
  it("offers each corridor's rails, all from the reference enum", () => {
    expect(ACCOUNT_TYPES_BY_COUNTRY).toEqual({ US: ["ACH", "BANK_USA"], MX: ["SPEI"], AR: ["COELSA"], CO: ["ACH"] });
    for (const country of FIAT_ACCOUNT_COUNTRIES) {
      for (const type of ACCOUNT_TYPES_BY_COUNTRY[country]) expect(FIAT_ACCOUNT_TYPES).toContain(type);
    }
  });
});

describe("validateFiatAccount: valid accounts, normalized", () => {
  it("US ACH", () => {
    expect(validateFiatAccount("US", { ...US_ACH, country: "US" })).toStrictEqual({
      country: "US",
      type: "ACH",
      accountNumber: "123456789",
      accountName: "Ada Lovelace",
      accountType: "checking",
      routingNumber: ABA,
      isExternal: false,
    });
  });

  it("US BANK_USA with the beneficiary address (ZIP+4) and a partial bank address", () => {
    const account = validateFiatAccount("US", {
      ...US_WIRE,
      beneficiaryPostalCode: "62701-1234",
      bankCity: " New York ",
      isExternal: true,
    });
    expect(account).toStrictEqual({
      country: "US",
      type: "BANK_USA",
      accountNumber: "123456789",
      accountName: "Ada Lovelace",
      accountType: "checking",
      routingNumber: ABA,
      isExternal: true,
      bank: { city: "New York" },
      beneficiary: { street: "1 Main St", city: "Springfield", state: "IL", postalCode: "62701-1234" },
    });
  });

  it("MX SPEI with a CLABE", () => {
    expect(validateFiatAccount("MX", MX_SPEI)).toStrictEqual({
      country: "MX",
      type: "SPEI",
      accountNumber: CLABE,
      accountName: "María López",
      isExternal: false,
    });
  });

  it("AR COELSA with a CBU or a CVU and a CUIT or CUIL", () => {
    expect(validateFiatAccount("AR", AR_COELSA)).toStrictEqual({
      country: "AR",
      type: "COELSA",
      accountNumber: CBU,
      accountName: "Juan Pérez",
      documentType: "CUIT",
      documentNumber: CUIT,
      isExternal: false,
    });
    expect(
      validateFiatAccount("AR", {
        ...AR_COELSA,
        accountNumber: CVU,
        documentType: "CUIL",
        documentNumber: "27171234560",
      }),
    ).toMatchObject({
      accountNumber: CVU,
      documentType: "CUIL",
    });
  });

  it("CO ACH with each document type", () => {
    expect(validateFiatAccount("CO", CO_ACH)).toStrictEqual({
      country: "CO",
      type: "ACH",
      accountNumber: "123456789012",
      accountName: "Camila Gómez",
      accountType: "savings",
      accountBankCode: "1007",
      documentType: "CC",
      documentNumber: "1020304050",
      isExternal: false,
    });
    const documents = [
      ["TI", "1234567", "1234567"],
      ["CE", "ab-12345", "AB12345"],
      ["PP", "pa1234567", "PA1234567"],
      ["NIT", NIT, NIT],
      ["NIT", "890.903.938-8", NIT],
    ];
    for (const [documentType, documentNumber, stored] of documents) {
      expect(validateFiatAccount("CO", { ...CO_ACH, documentType, documentNumber })).toMatchObject({
        documentType,
        documentNumber: stored,
      });
    }
  });

  it("normalizes: spaces and dashes dropped from numbers, text trimmed, words matched without regard to case", () => {
    const account = validateFiatAccount("US", {
      ...US_ACH,
      accountNumber: " 1234-5678 9 ",
      routingNumber: "021 000 021",
      accountName: "  Ada Lovelace  ",
      accountType: "Checking",
    });
    expect(account).toMatchObject({
      accountNumber: "123456789",
      routingNumber: ABA,
      accountName: "Ada Lovelace",
      accountType: "checking",
    });
    expect(validateFiatAccount("MX", { ...MX_SPEI, accountNumber: "032 180 00011835971-9" }).accountNumber).toBe(CLABE);
    expect(
      validateFiatAccount("AR", { ...AR_COELSA, documentType: "cuit", documentNumber: "20-12345678-6" }),
    ).toMatchObject({
      documentType: "CUIT",
      documentNumber: CUIT,
    });
  });

  it("leaves out optional fields that are absent, null or blank (no undefined values)", () => {
    const account = validateFiatAccount("MX", {
      ...MX_SPEI,
      country: null,
      accountType: null,
      routingNumber: "  ",
      bankStreet: "",
      isExternal: null,
    });
    expect(account).toStrictEqual({
      country: "MX",
      type: "SPEI",
      accountNumber: CLABE,
      accountName: "María López",
      isExternal: false,
    });
    expect(Object.values(account)).not.toContain(undefined);
  });
});

describe("validateFiatAccount: rejected with field-level details", () => {
  it("a type the corridor does not offer names the ones it does", () => {
    expect(rejection("MX", { ...US_ACH })).toEqual([{ field: "type", message: "is not offered in MX; use SPEI" }]);
    expect(rejection("US", { ...MX_SPEI })).toEqual([
      { field: "type", message: "is not offered in US; use ACH or BANK_USA" },
    ]);
    expect(rejection("AR", { ...MX_SPEI, type: "PIX" })).toEqual([
      { field: "type", message: "is not offered in AR; use COELSA" },
    ]);
  });

  it("a type outside the reference enum, or none", () => {
    expect(rejection("US", { ...US_ACH, type: "WIRE" })).toEqual([
      { field: "type", message: `must be one of ${FIAT_ACCOUNT_TYPES.join(", ")}` },
    ]);
    const { type: _type, ...untyped } = US_ACH;
    expect(rejection("US", untyped)).toEqual([{ field: "type", message: "is required" }]);
  });

  it("unknown fields, each named (strict body)", () => {
    expect(rejection("MX", { ...MX_SPEI, iban: "x", swift: "y" })).toEqual([
      { field: "iban", message: "is not a field of a fiat account" },
      { field: "swift", message: "is not a field of a fiat account" },
    ]);
  });

  it("a body that is not an object, and fields of the wrong JSON type", () => {
    expect(rejection("MX", "SPEI")).toEqual([{ field: "(body)", message: "must be a JSON object" }]);
    expect(rejection("MX", null)).toEqual([{ field: "(body)", message: "must be a JSON object" }]);
    // eslint-disable-next-line no-loss-of-precision -- a JSON number too long for a double is the case under test
    expect(rejection("MX", { ...MX_SPEI, accountNumber: 32180000118359719, isExternal: "yes" })).toEqual([
      { field: "accountNumber", message: "must be a string" },
      { field: "isExternal", message: "must be true or false" },
    ]);
  });

  it("a body country that disagrees with the corridor decided by the request", () => {
    expect(rejection("MX", { ...MX_SPEI, country: "US" })).toEqual([
      { field: "country", message: "must match the account's corridor MX" },
    ]);
    expect(rejection("MX", { ...MX_SPEI, country: "BR" })).toEqual([
      { field: "country", message: "must be one of AR, CO, MX, US" },
    ]);
  });

  it("US ACH: routing number checksum, prefix and length; account number length; account type", () => {
    expect(rejection("US", { ...US_ACH, routingNumber: "021000022" })).toEqual([
      { field: "routingNumber", message: "is not a valid ABA routing number (checksum)" },
    ]);
    expect(rejection("US", { ...US_ACH, routingNumber: "450000003" })).toEqual([
      {
        field: "routingNumber",
        message:
          "is not a valid ABA routing number: 45 is not a Federal Reserve routing symbol (00–12, 21–32, 61–72, 80)",
      },
    ]);
    expect(rejection("US", { ...US_ACH, routingNumber: "000000000" })).toEqual([
      { field: "routingNumber", message: "is not a valid ABA routing number (all zeros)" },
    ]);
    expect(rejection("US", { ...US_ACH, routingNumber: "02100002" })).toEqual([
      { field: "routingNumber", message: "must be 9 digits (got 8)" },
    ]);
    expect(rejection("US", { ...US_ACH, accountNumber: "123" })).toEqual([
      { field: "accountNumber", message: "must be an account number of 4–17 digits (got 3)" },
    ]);
    expect(rejection("US", { ...US_ACH, accountNumber: "123456789012345678" })).toEqual([
      { field: "accountNumber", message: "must be an account number of 4–17 digits (got 18)" },
    ]);
    expect(rejection("US", { ...US_ACH, accountType: "brokerage" })).toEqual([
      { field: "accountType", message: `must be "checking" or "savings"` },
    ]);
    const { routingNumber: _routing, accountType: _type, accountName: _name, ...bare } = US_ACH;
    expect(rejection("US", bare)).toEqual([
      { field: "accountType", message: "is required" },
      { field: "routingNumber", message: "is required" },
    ]);
  });

  it("the 4 and 17 digit bounds of a US account number are accepted", () => {
    expect(validateFiatAccount("US", { ...US_ACH, accountNumber: "1234" }).accountNumber).toBe("1234");
    expect(validateFiatAccount("US", { ...US_ACH, accountNumber: "12345678901234567" }).accountNumber).toBe(
      "12345678901234567",
    );
  });

  it("US BANK_USA: the beneficiary address is required, with a US ZIP code", () => {
    expect(rejection("US", { ...US_ACH, type: "BANK_USA" })).toEqual([
      { field: "beneficiaryStreet", message: "is required" },
      { field: "beneficiaryCity", message: "is required" },
      { field: "beneficiaryState", message: "is required" },
      { field: "beneficiaryPostalCode", message: "is required" },
    ]);
    for (const zip of ["6270", "62701-12", "627011234", "K1A 0B1"]) {
      expect(rejection("US", { ...US_WIRE, beneficiaryPostalCode: zip })).toEqual([
        { field: "beneficiaryPostalCode", message: "must be a US ZIP code (12345 or 12345-6789)" },
      ]);
    }
  });

  it("MX SPEI: CLABE check digit and length; no routing number", () => {
    expect(rejection("MX", { ...MX_SPEI, accountNumber: "032180000118359712" })).toEqual([
      { field: "accountNumber", message: "is not a valid CLABE: the check digit should be 9" },
    ]);
    expect(rejection("MX", { ...MX_SPEI, accountNumber: "0321800001183597" })).toEqual([
      { field: "accountNumber", message: "must be an 18-digit CLABE (got 16 digits)" },
    ]);
    expect(rejection("MX", { ...MX_SPEI, routingNumber: ABA })).toEqual([
      { field: "routingNumber", message: "is not used by SPEI: the CLABE names the bank" },
    ]);
  });

  it("AR COELSA: each CBU block's check digit, its length, and the CUIT/CUIL", () => {
    expect(rejection("AR", { ...AR_COELSA, accountNumber: "2850590840090418135202" })).toEqual([
      {
        field: "accountNumber",
        message: "is not a valid CBU/CVU: the check digit of the bank block (8th digit) should be 9",
      },
      {
        field: "accountNumber",
        message: "is not a valid CBU/CVU: the check digit of the account block (22nd digit) should be 1",
      },
    ]);
    expect(rejection("AR", { ...AR_COELSA, accountNumber: CBU.slice(0, 20) })).toEqual([
      { field: "accountNumber", message: "must be a 22-digit CBU or CVU (got 20 digits)" },
    ]);
    expect(rejection("AR", { ...AR_COELSA, documentNumber: "20-12345678-7" })).toEqual([
      { field: "documentNumber", message: "is not a valid CUIT/CUIL: the check digit should be 6" },
    ]);
    expect(rejection("AR", { ...AR_COELSA, documentNumber: "20123456760" })).toEqual([
      { field: "documentNumber", message: "is not a valid CUIT/CUIL: no check digit fits these first 10 digits" },
    ]);
    expect(rejection("AR", { ...AR_COELSA, documentNumber: "21123456782" })).toEqual([
      { field: "documentNumber", message: "is not a valid CUIT/CUIL: it must start with 20, 23, 24, 27, 30, 33, 34" },
    ]);
    expect(rejection("AR", { ...AR_COELSA, documentNumber: "12345678" })).toEqual([
      { field: "documentNumber", message: "must be 11 digits (got 8)" },
    ]);
    expect(rejection("AR", { ...AR_COELSA, documentType: "DNI" })).toEqual([
      { field: "documentType", message: "must be CUIT or CUIL" },
    ]);
  });

  it("CO ACH: bank code, account number length, document type and the number its type asks for", () => {
    expect(rejection("CO", { ...CO_ACH, accountBankCode: "10070" })).toEqual([
      { field: "accountBankCode", message: "must be an ACH Colombia bank code of 4 digits (got 5)" },
    ]);
    expect(rejection("CO", { ...CO_ACH, accountNumber: "12345" })).toEqual([
      { field: "accountNumber", message: "must be an account number of 6–20 digits (got 5)" },
    ]);
    expect(rejection("CO", { ...CO_ACH, documentType: "DNI" })).toEqual([
      { field: "documentType", message: "must be one of CC, CE, NIT, PP, TI" },
    ]);
    const documents = [
      ["CC", "12345", "must be a cédula of 6–10 digits (got 5)"],
      ["TI", "12345678901", "must be a tarjeta de identidad of 6–10 digits (got 11)"],
      ["CE", "AB12", "must be 6–12 letters or digits"],
      ["PP", "PA12345678901", "must be 6–12 letters or digits"],
      ["NIT", "890903938-7", "is not a valid NIT: the check digit should be 8"],
      ["NIT", "89090393", "must be a NIT of 9 digits and a check digit, such as 900123456-7 (got 8 digits)"],
    ];
    for (const [documentType, documentNumber, message] of documents) {
      expect(rejection("CO", { ...CO_ACH, documentType, documentNumber })).toEqual([
        { field: "documentNumber", message },
      ]);
    }
  });

  it("letters where digits are required are rejected, not dropped", () => {
    expect(rejection("US", { ...US_ACH, accountNumber: "12345678A", routingNumber: "O21000021" })).toEqual([
      { field: "accountNumber", message: "must contain only digits (spaces and dashes may separate them)" },
      { field: "routingNumber", message: "must contain only digits (spaces and dashes may separate them)" },
    ]);
    expect(rejection("CO", { ...CO_ACH, documentNumber: "10.203.040x" })).toEqual([
      { field: "documentNumber", message: "must contain only digits (spaces, dots and dashes may separate them)" },
    ]);
  });

  it("reports every problem at once, shape and rules together", () => {
    const body = {
      ...US_WIRE,
      extra: 1,
      routingNumber: "021000022",
      accountNumber: "12",
      accountType: "brokerage",
      beneficiaryPostalCode: "ABCDE",
      accountName: " ",
    };
    expect(rejection("US", body)).toEqual([
      { field: "extra", message: "is not a field of a fiat account" },
      { field: "accountNumber", message: "must be an account number of 4–17 digits (got 2)" },
      { field: "accountType", message: `must be "checking" or "savings"` },
      { field: "routingNumber", message: "is not a valid ABA routing number (checksum)" },
      { field: "beneficiaryPostalCode", message: "must be a US ZIP code (12345 or 12345-6789)" },
    ]);
    expect(
      rejection("AR", {
        ...AR_COELSA,
        country: "MX",
        accountNumber: "2850590940090418135200",
        documentType: "CUIL",
        documentNumber: "20123456787",
      }),
    ).toEqual([
      { field: "country", message: "must match the account's corridor AR" },
      {
        field: "accountNumber",
        message: "is not a valid CBU/CVU: the check digit of the account block (22nd digit) should be 1",
      },
      { field: "documentNumber", message: "is not a valid CUIT/CUIL: the check digit should be 6" },
    ]);
  });

  it("long text is refused", () => {
    expect(rejection("MX", { ...MX_SPEI, accountName: "x".repeat(201) })).toEqual([
      { field: "accountName", message: "must be at most 200 characters" },
    ]);
  });
});

describe("fiatAccountInput", () => {
  it("is the reference body: type and accountNumber required, country optional, strict", () => {
    expect(fiatAccountInput.safeParse({ type: "SPEI", accountNumber: CLABE }).success).toBe(true);
    expect(
      fiatAccountInput.safeParse({ country: "MX", type: "SPEI", accountNumber: CLABE, isExternal: false }).success,
    ).toBe(true);
    expect(fiatAccountInput.safeParse({ type: "SPEI" }).success).toBe(false);
    expect(fiatAccountInput.safeParse({ type: "SPEI", accountNumber: CLABE, note: "x" }).success).toBe(false);
  });
});

describe("shownAccountType", () => {
  // The reference's DomesticFiatAccount requires accountType: every rail served has one to show.
  const bodies = { US: [US_ACH, US_WIRE], MX: [MX_SPEI], AR: [AR_COELSA], CO: [CO_ACH] };

  it("is the bank account type where the rail takes one, else the kind of number that names the account", () => {
    const shown = Object.entries(bodies).flatMap(([country, accounts]) =>
      accounts.map(({ accountName: _name, ...body }) => {
        const details = validateFiatAccount(country as FiatAccountCountry, body);
        return [`${country} ${details.type}`, shownAccountType(details)];
      }),
    );
    expect(Object.fromEntries(shown)).toEqual({
      "US ACH": "checking",
      "US BANK_USA": "checking",
      "MX SPEI": "clabe",
      "AR COELSA": "cbu",
      "CO ACH": "savings",
    });
    // Every rail a country offers is covered above.
    expect(shown.map(([rail]) => rail).sort()).toEqual(
      Object.entries(ACCOUNT_TYPES_BY_COUNTRY)
        .flatMap(([country, types]) => types.map((type) => `${country} ${type}`))
        .sort(),
    );
  });

  it("shows a bank account type given on a rail that needs none", () => {
    expect(shownAccountType(validateFiatAccount("MX", { ...MX_SPEI, accountType: "Savings" }))).toBe("savings");
  });

  it("takes no accountName on any rail: the reference requires only country, type and accountNumber", () => {
    for (const [country, accounts] of Object.entries(bodies))
      for (const { accountName: _name, ...body } of accounts)
        expect(validateFiatAccount(country as FiatAccountCountry, body)).not.toHaveProperty("accountName");
  });
});
