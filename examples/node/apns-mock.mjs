// Runs apns-mock for a test file: free ports (`--port 0 --admin-port 0`), the ports read from
// the one line it prints once both listen, a freshly made token-signing key registered, and
// `stop()` for the end. Node built-ins only.
//
// Environment:
//   APNS_MOCK        the apns-mock binary (default: `apns-mock` on PATH)
//   APNS_MOCK_CERTS  a directory with server.pem, server-key.pem and ca.pem (default: a new
//                    development CA and server certificate, made with `apns-mock certs generate`)
//   APNS_MOCK_ADMIN_TOKEN  when set, serve requires it on admin calls (and verify sends it), so
//                    the admin calls here send it too
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { promisify } from "node:util";

const START_TIMEOUT_MS = 15_000;
const READY_LINE = /apns-mock ready apns=(\S+) admin=(\S+)/;

// The provider's identity in this test run. Any 10-character ids do: the key is made here.
export const KEY_ID = "TESTKEY001";
export const TEAM_ID = "TESTTEAM01";

/** Runs `apns-mock ARGS…`; resolves to {status, stdout, stderr} whatever the exit status. */
export async function runApnsMock(binary, args) {
  try {
    const { stdout, stderr } = await promisify(execFile)(binary, args, { timeout: 60_000 });
    return { status: 0, stdout, stderr };
  } catch (error) {
    if (error.code === "ENOENT") {
      throw new Error(`apns-mock not found ('${binary}'): set APNS_MOCK to the binary, or put it on PATH`);
    }
    if (typeof error.code !== "number") throw error;
    return { status: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

async function mustRun(binary, args) {
  const result = await runApnsMock(binary, args);
  if (result.status !== 0) {
    throw new Error(`apns-mock ${args.join(" ")} exited ${result.status}:\n${result.stdout}${result.stderr}`);
  }
}

/** Resolves to [apnsUrl, adminUrl] from the ready line; rejects on exit or after the timeout. */
function readyLine(server) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`apns-mock printed no ready line within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    const done = (settle, value) => {
      clearTimeout(timer);
      settle(value);
    };
    server.once("error", (error) => done(reject, error));
    server.once("exit", (code) => done(reject, new Error(`apns-mock exited with status ${code} before it was ready`)));
    // The reader keeps consuming stdout after the ready line, so a full pipe never blocks the server.
    readline.createInterface({ input: server.stdout }).on("line", (line) => {
      const match = READY_LINE.exec(line);
      if (match) done(resolve, [match[1], match[2]]);
    });
  });
}

/**
 * Starts apns-mock with the expectation file's `setup:` applied.
 * Resolves to {binary, apnsUrl, adminUrl, adminHeaders, caFile, keyFile, keyId, teamId, stop()}.
 */
export async function startApnsMock({ expectations }) {
  const binary = process.env.APNS_MOCK || "apns-mock";
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "apns-mock-"));
  let server;
  const stop = async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = once(server, "exit");
      server.kill("SIGTERM");
      const timer = setTimeout(() => server.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(work, { recursive: true, force: true });
  };

  try {
    const certs = process.env.APNS_MOCK_CERTS ? path.resolve(process.env.APNS_MOCK_CERTS) : path.join(work, "certs");
    if (!process.env.APNS_MOCK_CERTS) await mustRun(binary, ["certs", "generate", "--out", certs]);
    await mustRun(binary, ["keys", "generate", "--key-id", KEY_ID, "--team-id", TEAM_ID, "--out", work]);

    server = spawn(
      binary,
      [
        "serve", "--port", "0", "--admin-port", "0",
        "--tls-cert", path.join(certs, "server.pem"), "--tls-key", path.join(certs, "server-key.pem"),
        // Unknown device tokens and key ids are refused, as Apple refuses them: the device comes
        // from the expectation file's setup, the key from the registration below.
        "--strict-registry",
        "--expectations", path.resolve(expectations),
      ],
      { cwd: work, stdio: ["ignore", "pipe", "inherit"] },
    );
    const [apnsUrl, adminUrl] = await readyLine(server);

    const adminHeaders = process.env.APNS_MOCK_ADMIN_TOKEN
      ? { authorization: `Bearer ${process.env.APNS_MOCK_ADMIN_TOKEN}` }
      : {};

    // Register the provider's public key, so the mock checks every token's signature.
    const publicKey = fs.readFileSync(path.join(work, `AuthKey_${KEY_ID}.pub.pem`), "utf8");
    const answer = await fetch(`${adminUrl}/v1/keys/${KEY_ID}`, {
      method: "PUT",
      headers: { ...adminHeaders, "content-type": "application/json" },
      body: JSON.stringify({ teamId: TEAM_ID, publicKey }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!answer.ok) throw new Error(`registering the key: ${answer.status} ${await answer.text()}`);

    return {
      binary,
      apnsUrl,
      adminUrl,
      adminHeaders,
      caFile: path.join(certs, "ca.pem"),
      keyFile: path.join(work, `AuthKey_${KEY_ID}.p8`),
      keyId: KEY_ID,
      teamId: TEAM_ID,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
