import { z } from "zod";
import { idInput } from "../output.js";
import {
  historyInput,
  rampErrorView,
  rampIdInput,
  rampView,
  registerInput,
  updateInput,
  walletHistoryInput,
} from "../ramps/types.js";
import { uuid } from "../validation.js";
import { defineOperation, gate } from "./operation.js";

const RAMPS = { requires: ["RAMP_OPERATIONS"], delegation: "DELEGATED" } as const;

/** The ramp an update or start names: the caller may use its corridor before the rest is validated. */
const startableRamp = gate(rampIdInput, (app, acting, { rampId }) => app.ramps.startable(acting, rampId));

export const registerRamp = defineOperation({
  name: "registerRamp",
  summary: "Register a ramp from a quote (consumed once); corridor checks use the quote's fiat",
  access: RAMPS,
  gate: gate(registerInput.pick({ quoteId: true }), (app, acting, { quoteId }) =>
    app.ramps.registrableQuote(acting, quoteId),
  ),
  input: registerInput,
  output: rampView,
  run: (app, acting, input, quote) => app.ramps.register(acting, quote, input),
});

export const updateRamp = defineOperation({
  name: "updateRamp",
  summary: "Add signed transactions (SELL) and client-reported hashes to a ramp while it is initial",
  access: RAMPS,
  gate: startableRamp,
  input: updateInput,
  output: rampView,
  run: (app, acting, input, ramp) => app.ramps.update(acting, input, ramp),
});

export const startRamp = defineOperation({
  name: "startRamp",
  summary: "Start processing a ramp: the caller's part (payment, signed transfer) is done",
  access: RAMPS,
  gate: startableRamp,
  input: rampIdInput,
  output: rampView,
  run: (app, acting, _input, ramp) => app.ramps.start(acting, ramp),
});

export const getRampStatus = defineOperation({
  name: "getRampStatus",
  summary: "Get one of the subject's ramps (reads skip the manager's corridor policy); NOT_FOUND when there is none",
  access: RAMPS,
  input: z.object({ id: idInput("The UUID of the ramp to read.") }),
  output: rampView,
  run: (app, acting, { id }) => app.ramps.get(acting, id),
});

export const getRampHistory = defineOperation({
  name: "getRampHistory",
  summary: "List the subject's ramps",
  access: RAMPS,
  input: historyInput,
  run: (app, acting, page) => app.ramps.history(acting, page),
});

/** The reference's history of one wallet address: the same listing, the address in the path. */
export const getRampHistoryOfWallet = defineOperation({
  name: "getRampHistoryOfWallet",
  summary: "List the subject's ramps of one wallet address",
  access: RAMPS,
  input: walletHistoryInput,
  run: (app, acting, page) => app.ramps.history(acting, page),
});

export const getRampErrorLogs = defineOperation({
  name: "getRampErrorLogs",
  summary: "Get a ramp's error log",
  access: RAMPS,
  input: z.object({ id: uuid() }),
  output: z.array(rampErrorView),
  run: (app, acting, { id }) => app.ramps.errors(acting, id),
});
