import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  alfredpay,
  alfredpayCustomer,
  alfredpayForm,
  CALLBACK_SECRET,
  controlCall,
  receiver,
  simulator,
  sleep,
  waitFor,
  type Received,
} from "./helpers.js";
import { MAX_UPLOAD_BYTES } from "../../../packages/partner-simulator/src/alfredpay.js";

/** Standard Webhooks verification, as a receiver does it (spec decision 7). */
function isStandardWebhookSigned(received: Received): boolean {
  const id = String(received.headers["webhook-id"]);
  const timestamp = String(received.headers["webhook-timestamp"]);
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const secret = Buffer.from(CALLBACK_SECRET.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", secret).update(`${id}.${timestamp}.${received.rawBody}`).digest("base64");
  return String(received.headers["webhook-signature"]).split(" ").includes(`v1,${expected}`);
}

async function onrampQuote(base: string, fromAmount: string, customerId: string) {
  const request = { fromCurrency: "MXN", toCurrency: "USDT", fromAmount, chain: "MATIC", paymentMethodType: "BANK" };
  return (await alfredpay(base, "POST", "/quotes", { ...request, metadata: { businessId: "gw", customerId } })).body;
}

async function createOnramp(base: string, customerId: string, quote: any) {
  return alfredpay(base, "POST", "/onramp", {
    customerId,
    quoteId: quote.quoteId,
    fromCurrency: "MXN",
    toCurrency: "USDT",
    amount: quote.fromAmount,
    chain: "MATIC",
    paymentMethodType: "BANK",
    depositAddress: "0x1111111111111111111111111111111111111111",
  });
}

async function createOfframp(base: string, customerId: string, fromAmount: string) {
  const fiatAccount = await alfredpay(base, "POST", "/fiatAccounts", {
    customerId,
    type: "SPEI",
    fiatAccountFields: {
      accountNumber: "646180157000000004",
      accountType: "CLABE",
      metadata: { accountHolderName: "Ana" },
    },
    isExternal: false,
  });
  const quoteRequest = {
    fromCurrency: "USDT",
    toCurrency: "MXN",
    fromAmount,
    chain: "MATIC",
    paymentMethodType: "BANK",
    metadata: {},
  };
  const quote = (await alfredpay(base, "POST", "/quotes", quoteRequest)).body;
  return alfredpay(base, "POST", "/offramp", {
    customerId,
    quoteId: quote.quoteId,
    fromCurrency: "USDT",
    toCurrency: "MXN",
    amount: quote.fromAmount,
    chain: "MATIC",
    fiatAccountId: fiatAccount.body.fiatAccountId,
    originAddress: "0x2222222222222222222222222222222222222222",
  });
}

describe("Alfredpay", () => {
  it("refuses wrong credentials 401 {errorCode, errorMessage}", async () => {
    const sim = await simulator();
    const refused = await alfredpay(
      sim.url,
      "POST",
      "/customers/create",
      { email: "a@b.c", country: "MX", type: "INDIVIDUAL" },
      "wrong",
    );
    expect(refused).toEqual({ status: 401, body: { errorCode: 401, errorMessage: "Unauthorized" } });
    expect(sim.stats().alfredpay.calls).toEqual({ "POST /api/v1/third-party-service/penny/customers/create": 1 });
  });

  it("refuses a repeated email+country 409 already registered, and finds the customer", async () => {
    const sim = await simulator();
    const body = { email: "Ana@Example.com", country: "MX", type: "INDIVIDUAL" };
    const created = await alfredpay(sim.url, "POST", "/customers/create", body);
    const again = await alfredpay(sim.url, "POST", "/customers/create", body);
    expect(again.status).toBe(409);
    expect(again.body.errorMessage).toContain("already registered");
    const found = await alfredpay(sim.url, "GET", `/customers/find/${encodeURIComponent("ana@example.com")}/MX`);
    expect(found.body).toMatchObject({ customerId: created.body.customerId, country: "MX", type: "INDIVIDUAL" });
    expect((await alfredpay(sim.url, "POST", "/customers/create", { ...body, country: "CO" })).status).toBe(200);
  });

  it("runs an onramp to ON_CHAIN_COMPLETED with a signed callback per change", async () => {
    const hooks = await receiver();
    const sim = await simulator({ callbackUrl: hooks.url });
    const { customerId } = await alfredpayCustomer(sim.url);
    const quote = await onrampQuote(sim.url, "1720.00", customerId);
    expect(quote).toMatchObject({ fromAmount: "1720.00", toAmount: "99.000000", rate: "17.2" });
    const created = await createOnramp(sim.url, customerId, quote);
    expect(created.body.transaction.status).toBe("CREATED");
    expect(created.body.fiatPaymentInstructions).toMatchObject({ paymentType: "SPEI", clabe: expect.any(String) });
    const id = created.body.transaction.transactionId;
    await waitFor(() => hooks.received.some((hook) => hook.body.data.status === "ON_CHAIN_COMPLETED"));
    const onrampHooks = hooks.received.filter((hook) => hook.body.type === "onramp");
    expect(onrampHooks.map((hook) => hook.body.data.status)).toEqual([
      "FIAT_DEPOSIT_RECEIVED",
      "TRADE_COMPLETED",
      "ON_CHAIN_INITIATED",
      "ON_CHAIN_COMPLETED",
    ]);
    expect(hooks.received.map((hook) => hook.body.type)).toEqual(["kyc", "kyc", ...onrampHooks.map(() => "onramp")]);
    expect(hooks.received.every(isStandardWebhookSigned)).toBe(true);
    expect(
      isStandardWebhookSigned({ ...onrampHooks[0]!, rawBody: onrampHooks[0]!.rawBody.replace("MXN", "USD") }),
    ).toBe(false);
    expect(new Set(hooks.received.map((hook) => hook.headers["webhook-id"])).size).toBe(hooks.received.length);
    const order = await alfredpay(sim.url, "GET", `/onramp/${id}`);
    expect(order.body).toMatchObject({
      status: "ON_CHAIN_COMPLETED",
      txHash: expect.stringMatching(/^0x/),
      quoteId: quote.quoteId,
    });
    expect(sim.stats().alfredpay.moneySteps).toEqual({ [`onramp:${quote.quoteId}`]: 1 });
  });

  it("runs an offramp to FIAT_TRANSFER_COMPLETED with a deposit address and signed callbacks", async () => {
    const hooks = await receiver();
    const sim = await simulator({ callbackUrl: hooks.url });
    const { customerId } = await alfredpayCustomer(sim.url);
    const created = await createOfframp(sim.url, customerId, "100.00");
    expect(created.body).toMatchObject({
      status: "CREATED",
      depositAddress: expect.stringMatching(/^0x[0-9a-f]{40}$/),
    });
    expect(Date.parse(created.body.expiration)).toBeGreaterThan(Date.now() + 2 * 60_000);
    await waitFor(() => hooks.received.some((hook) => hook.body.data.status === "FIAT_TRANSFER_COMPLETED"));
    const statuses = hooks.received.filter((hook) => hook.body.type === "offramp").map((hook) => hook.body.data.status);
    expect(statuses).toEqual([
      "ON_CHAIN_DEPOSIT_RECEIVED",
      "TRADE_COMPLETED",
      "FIAT_TRANSFER_INITIATED",
      "FIAT_TRANSFER_COMPLETED",
    ]);
    expect(hooks.received.every(isStandardWebhookSigned)).toBe(true);
  });

  it("fails a .66 order after the deposit stage with metadata.failureReason", async () => {
    const sim = await simulator();
    const { customerId } = await alfredpayCustomer(sim.url);
    const created = await createOnramp(sim.url, customerId, await onrampQuote(sim.url, "500.66", customerId));
    const id = created.body.transaction.transactionId;
    const order = await waitFor(async () => {
      const { body } = await alfredpay(sim.url, "GET", `/onramp/${id}`);
      return body.status === "FAILED" && body;
    });
    expect(order.metadata).toEqual({ failureReason: "Exchange refused" });
  });

  it("answers .77's first GET at the payout stage 503, and the next one 200; not before that stage", async () => {
    const waiting = await simulator({ timing: { depositDelayMs: 60_000 } });
    const early = await createOfframp(waiting.url, (await alfredpayCustomer(waiting.url)).customerId, "30.77");
    expect((await alfredpay(waiting.url, "GET", `/offramp/${early.body.transactionId}`)).status).toBe(200);

    const hooks = await receiver();
    const sim = await simulator({ callbackUrl: hooks.url });
    const order = await createOfframp(sim.url, (await alfredpayCustomer(sim.url)).customerId, "30.77");
    await waitFor(() => hooks.received.some((hook) => hook.body.data.status === "FIAT_TRANSFER_COMPLETED"));
    const path = `/offramp/${order.body.transactionId}`;
    expect(await alfredpay(sim.url, "GET", path)).toMatchObject({ status: 503 });
    expect(await alfredpay(sim.url, "GET", path)).toMatchObject({
      status: 200,
      body: { status: "FIAT_TRANSFER_COMPLETED" },
    });
  });

  it("refuses a second order on one quote 409 111409 naming the first order, and counts a refused duplicate", async () => {
    const sim = await simulator();
    const { customerId } = await alfredpayCustomer(sim.url);
    const quote = await onrampQuote(sim.url, "100.00", customerId);
    const first = await createOnramp(sim.url, customerId, quote);
    expect(first.status).toBe(200);
    const again = await createOnramp(sim.url, customerId, quote);
    expect(again).toEqual({
      status: 409,
      body: {
        errorCode: 111409,
        errorMessage: "Quote already used",
        errorMetadata: { transactionId: first.body.transaction.transactionId },
      },
    });
    const identity = `onramp:${quote.quoteId}`;
    expect(sim.stats().alfredpay.moneySteps).toEqual({ [identity]: 1 });
    expect(sim.stats().alfredpay.duplicateMoneySteps).toEqual({ [identity]: 1 });
  });

  it("names the order of a used quote even once the quote expired, so a lost answer is found by sending again", async () => {
    const sim = await simulator({ timing: { quoteTtlMs: 200 } });
    const { customerId } = await alfredpayCustomer(sim.url);
    const quote = await onrampQuote(sim.url, "100.00", customerId);
    const first = await createOnramp(sim.url, customerId, quote);
    await sleep(250);
    const again = await createOnramp(sim.url, customerId, quote);
    expect([again.status, again.body.errorMetadata]).toEqual([
      409,
      { transactionId: first.body.transaction.transactionId },
    ]);
  });

  it("refuses an order on an expired quote 400", async () => {
    const sim = await simulator({ timing: { quoteTtlMs: 30 } });
    const { customerId } = await alfredpayCustomer(sim.url);
    const quote = await onrampQuote(sim.url, "100.00", customerId);
    await sleep(60);
    expect(await createOnramp(sim.url, customerId, quote)).toEqual({
      status: 400,
      body: { errorCode: 110002, errorMessage: "Quote expired" },
    });
    expect(sim.stats().alfredpay.moneySteps).toEqual({});
  });

  it("refuses a ramp for a customer whose KYC is not completed", async () => {
    const sim = await simulator();
    const created = await alfredpay(sim.url, "POST", "/customers/create", {
      email: "new@example.com",
      country: "MX",
      type: "INDIVIDUAL",
    });
    const quote = await onrampQuote(sim.url, "100.00", created.body.customerId);
    expect((await createOnramp(sim.url, created.body.customerId, quote)).status).toBe(403);
  });

  it("rejects KYC for a +kyc-rejected email and KYB for a related person named reject", async () => {
    const sim = await simulator();
    const person = await alfredpay(sim.url, "POST", "/customers/create", {
      email: "bo+kyc-rejected@example.com",
      country: "MX",
      type: "INDIVIDUAL",
    });
    const personId = person.body.customerId;
    const kyc = await alfredpay(sim.url, "POST", `/customers/${personId}/kyc`, {
      kycSubmission: { firstName: "Bo", lastName: "Diaz" },
    });
    await alfredpay(sim.url, "POST", `/customers/${personId}/kyc/${kyc.body.submissionId}/submit`);
    const business = await alfredpay(sim.url, "POST", "/customers/create", {
      email: "co@example.com",
      country: "CO",
      type: "BUSINESS",
    });
    const businessId = business.body.customerId;
    const kybForm = {
      kybSubmission: { businessName: "Acme", relatedPersons: [{ firstName: "Rejecta", lastName: "Ruiz" }] },
    };
    const kyb = await alfredpay(sim.url, "POST", `/customers/${businessId}/kyb`, kybForm);
    expect((await alfredpay(sim.url, "POST", `/customers/${businessId}/kyb`, kybForm)).body.errorCode).toBe(111405);
    expect(
      (await alfredpay(sim.url, "PUT", `/customers/${businessId}/kyb/${kyb.body.submissionId}/submit`)).status,
    ).toBe(200);
    const settled = (path: string) =>
      waitFor(async () => {
        const { body } = await alfredpay(sim.url, "GET", path);
        return ["COMPLETED", "FAILED"].includes(body.status) && body;
      });
    expect(await settled(`/customers/${personId}/kyc/${kyc.body.submissionId}/status`)).toMatchObject({
      status: "FAILED",
    });
    expect(await settled(`/customers/${businessId}/kyb/${kyb.body.submissionId}/status`)).toMatchObject({
      status: "FAILED",
    });
    const hosted = await alfredpay(sim.url, "GET", `/customers/kyb/${businessId}/verification/url`);
    expect(await settled(`/customers/${businessId}/kyb/${hosted.body.submissionId}/status`)).toMatchObject({
      status: "COMPLETED",
    });
  });

  it("takes KYC, KYB and related persons' files on a submission not yet submitted, checks them, and refuses them 422 once submitted", async () => {
    const sim = await simulator();
    const upload = (path: string, fileField: string, fileType: string, file = "id-front.jpg", size = 100) => {
      const form = new FormData();
      form.append(fileField, new Blob([new Uint8Array(size)], { type: "image/jpeg" }), file);
      form.append("fileType", fileType);
      return alfredpayForm(sim.url, path, form);
    };
    const person = await alfredpay(sim.url, "POST", "/customers/create", {
      email: "fi@example.com",
      country: "MX",
      type: "INDIVIDUAL",
    });
    const personId = person.body.customerId;
    const kyc = await alfredpay(sim.url, "POST", `/customers/${personId}/kyc`, {
      kycSubmission: { firstName: "Fi", lastName: "Diaz" },
    });
    const kycFiles = `/customers/${personId}/kyc/${kyc.body.submissionId}/files`;
    expect((await upload(kycFiles, "fileBody", "National ID Front")).status).toBe(200);
    expect((await upload(kycFiles, "fileBody", "Selfie")).status).toBe(200);
    expect((await upload(kycFiles, "fileBody", "Passport")).status).toBe(400);
    expect((await upload(kycFiles, "rawBody", "Selfie")).status).toBe(400);
    expect((await upload(kycFiles, "fileBody", "Selfie", "sélfie.jpg")).status).toBe(400);
    expect((await upload(kycFiles, "fileBody", "Selfie", "big.jpg", MAX_UPLOAD_BYTES + 1)).status).toBe(413);
    expect((await upload(`/customers/${personId}/kyc/unknown/files`, "fileBody", "Selfie")).status).toBe(404);
    await alfredpay(sim.url, "POST", `/customers/${personId}/kyc/${kyc.body.submissionId}/submit`);
    const late = await upload(kycFiles, "fileBody", "National ID Back");
    expect(late).toMatchObject({ status: 422, body: { errorCode: 422 } });

    const business = await alfredpay(sim.url, "POST", "/customers/create", {
      email: "kyb-files@example.com",
      country: "CO",
      type: "BUSINESS",
    });
    const businessId = business.body.customerId;
    const kyb = await alfredpay(sim.url, "POST", `/customers/${businessId}/kyb`, {
      kybSubmission: { businessName: "Acme", relatedPersons: [{ firstName: "Ana", lastName: "Ruiz" }] },
    });
    const kybFiles = `/customers/${businessId}/kyb/${kyb.body.submissionId}/files`;
    expect((await upload(kybFiles, "rawBody", "articlesIncorporation")).status).toBe(200);
    expect((await upload(kybFiles, "fileBody", "articlesIncorporation")).status).toBe(400);
    const details = await alfredpay(sim.url, "GET", `/customers/${businessId}/kyb/details`);
    expect(details.body).toMatchObject([
      { submissionId: kyb.body.submissionId, relatedPersons: [{ firstName: "Ana", lastName: "Ruiz" }] },
    ]);
    const personFiles = `/customers/${businessId}/kyb/${details.body[0].relatedPersons[0].idRelatedPerson}/files/relate-person`;
    expect((await upload(personFiles, "rawBody", "docFront")).status).toBe(200);
    expect((await upload(personFiles, "rawBody", "Selfie")).status).toBe(400);
    expect((await upload(`/customers/${businessId}/kyb/nobody/files/relate-person`, "rawBody", "docBack")).status).toBe(
      404,
    );
    await alfredpay(sim.url, "PUT", `/customers/${businessId}/kyb/${kyb.body.submissionId}/submit`);
    expect((await upload(kybFiles, "rawBody", "proofAddress")).status).toBe(422);
    expect((await upload(personFiles, "rawBody", "docBack")).status).toBe(422);
  });

  it("pays a CREATED onramp at once through the control route, and lists and deletes fiat accounts", async () => {
    const sim = await simulator({ timing: { paymentDelayMs: 60_000, stageDelayMs: 60_000 } });
    const { customerId } = await alfredpayCustomer(sim.url);
    const created = await createOnramp(sim.url, customerId, await onrampQuote(sim.url, "100.00", customerId));
    const id = created.body.transaction.transactionId;
    expect((await controlCall(sim.url, "POST", `/_control/alfredpay/onramp/${id}/pay`)).status).toBe(204);
    expect((await alfredpay(sim.url, "GET", `/onramp/${id}`)).body.status).toBe("FIAT_DEPOSIT_RECEIVED");
    const account = await alfredpay(sim.url, "POST", "/fiatAccounts", {
      customerId,
      type: "SPEI",
      fiatAccountFields: { accountNumber: "646180157000000004", accountType: "CLABE" },
    });
    const listed = await alfredpay(sim.url, "GET", `/fiatAccounts?customerId=${customerId}`);
    expect(listed.body).toMatchObject([
      { fiatAccountId: account.body.fiatAccountId, accountNumber: "646180157000000004", type: "SPEI" },
    ]);
    expect(
      (await alfredpay(sim.url, "DELETE", `/fiatAccounts/${customerId}/${account.body.fiatAccountId}`)).status,
    ).toBe(200);
    expect((await alfredpay(sim.url, "GET", `/fiatAccounts?customerId=${customerId}`)).body).toEqual([]);
  });

  it("refuses fiat-account fields a rail needs 400 110002 naming them, and a type the customer's country does not pay out on", async () => {
    const sim = await simulator();
    const create = (customerId: string, type: string, fiatAccountFields: unknown, isExternal = false) =>
      alfredpay(sim.url, "POST", "/fiatAccounts", { customerId, type, fiatAccountFields, isExternal });
    const mexican = (await alfredpayCustomer(sim.url, "mx@example.com", "MX")).customerId;
    const argentine = (await alfredpayCustomer(sim.url, "ar@example.com", "AR")).customerId;
    const colombian = (await alfredpayCustomer(sim.url, "co@example.com", "CO")).customerId;
    const american = (await alfredpayCustomer(sim.url, "us@example.com", "US")).customerId;
    const refusal = (fields: string) => ({
      status: 400,
      body: { errorCode: 110002, errorMessage: `Invalid field(s): ${fields}` },
    });

    expect(await create(mexican, "SPEI", { accountNumber: "6461801570", accountType: "clabe" })).toEqual(
      refusal("accountNumber, accountType"),
    );
    expect(await create(mexican, "COELSA", { accountNumber: "2850590940090418135201", accountType: "CBU" })).toEqual(
      refusal("type"),
    );
    expect(await create(argentine, "COELSA", { accountNumber: "0000003100010000000016", accountType: "CVU" })).toEqual({
      status: 200,
      body: { fiatAccountId: expect.any(String) },
    });
    const colombianAch = { accountNumber: "0110123456789", accountType: "AHORRO", accountName: "1007" };
    expect(await create(colombian, "ACH", { ...colombianAch, metadata: { documentType: "CC" } })).toEqual(
      refusal("metadata.documentNumber"),
    );
    expect(
      (
        await create(colombian, "ACH", {
          ...colombianAch,
          metadata: { documentType: "CC", documentNumber: "1020304050" },
        })
      ).status,
    ).toBe(200);
    const usAccount = { accountNumber: "000123456789", accountType: "CHECKING", routingNumber: "021000021" };
    expect((await create(american, "ACH", usAccount)).status).toBe(200);
    expect(await create(american, "BANK_USA", { ...usAccount, routingNumber: "21000021" })).toEqual(
      refusal("routingNumber"),
    );
    const beneficiaryAddress = { street: "1 Main St", city: "Austin", stateProvince: "TX", postalCode: "73301" };
    expect(await create(american, "BANK_USA", { ...usAccount, metadata: {} }, true)).toEqual(
      refusal(
        "metadata.beneficiaryAddress.street, metadata.beneficiaryAddress.city, metadata.beneficiaryAddress.stateProvince, metadata.beneficiaryAddress.postalCode",
      ),
    );
    expect((await create(american, "BANK_USA", { ...usAccount, metadata: { beneficiaryAddress } }, true)).status).toBe(
      200,
    );
    expect((await alfredpay(sim.url, "GET", `/fiatAccounts?customerId=${american}`)).body).toHaveLength(2);
  });
});
