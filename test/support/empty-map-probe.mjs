// Preloaded into a node process under test (NODE_OPTIONS=--import): on SIGUSR2 it prints whether V8's shared
// empty-object map can still take a transition, that is whether two empty objects given the same new key share
// one hidden class. Once the map has its 1536, they get one each (see src/rest/serializers.ts).
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--allow-natives-syntax");
const haveSameMap = new Function("a", "b", "return %HaveSameMap(a, b)");

process.on("SIGUSR2", () => {
  const key = `probe-${process.hrtime.bigint()}`;
  const [first, second] = [{}, {}];
  first[key] = true;
  second[key] = true;
  process.stdout.write(`${JSON.stringify({ emptyMapTakesTransitions: haveSameMap(first, second) })}\n`);
});
