import { listen } from "./forward-events.js";

/** `npm run -s listen -- --help`: forwards a quote's, session's or ramp's events to a local webhook receiver. */
const stop = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
process.exitCode = await listen(
  process.argv.slice(2),
  process.env,
  { out: (line) => console.log(line), err: (line) => console.error(line) },
  stop.signal,
);
