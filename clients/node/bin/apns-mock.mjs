#!/usr/bin/env node
// `npx apns-mock ...`: runs the apns-mock binary with the arguments given, chosen as startMock
// chooses it (findBinary: $APNS_MOCK_BIN, the binary this package carries for this platform,
// else apns-mock on PATH), forwarding SIGINT, SIGTERM and SIGHUP to it and exiting as it exits.
import { spawn } from "node:child_process";
import { findBinary } from "../index.mjs";

let binary;
try {
  binary = findBinary();
} catch (error) {
  console.error(error.message);
  process.exit(127);
}
const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
const signals = ["SIGINT", "SIGTERM", "SIGHUP"];
const forward = (signal) => child.kill(signal);
for (const signal of signals) process.on(signal, forward);
child.on("error", (error) => {
  console.error(`apns-mock: could not run ${binary}: ${error.message}`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  for (const name of signals) process.off(name, forward);
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
