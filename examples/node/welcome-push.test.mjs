// The CI flow against apns-mock: push as the app does, wait for the delivery, verify the file.
// Run with `node --test` (node:test, built-in http2, crypto and fetch; no npm packages).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http2 from "node:http2";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { after, before, test } from "node:test";
// The repository's Node module (clients/node); in your project: npm install path/to/apns-mock/clients/node,
// then import { startMock } from "apns-mock".
import { startMock } from "../../clients/node/index.mjs";

const BINARY = process.env.APNS_MOCK || process.env.APNS_MOCK_BIN || "apns-mock";
// The provider's identity in this test run. Any 10-character ids do: the key is made here.
const KEY_ID = "TESTKEY001";
const TEAM_ID = "TESTTEAM01";

const EXPECTATIONS = fileURLToPath(new URL("welcome-push.yaml", import.meta.url));
const DEVICE = "7f3a000000000000000000000000000000000000000000000000000000000001"; // registered by the file's setup
const TOPIC = "com.example.app";

/** An APNs provider token: a JWT signed with the .p8 key (ES256, signature as raw r||s). */
function providerToken(keyFile, keyId, teamId) {
  const part = (json) => Buffer.from(JSON.stringify(json)).toString("base64url");
  const unsigned = `${part({ alg: "ES256", kid: keyId })}.${part({ iss: teamId, iat: Math.floor(Date.now() / 1000) })}`;
  const signature = crypto.sign("sha256", Buffer.from(unsigned), {
    key: fs.readFileSync(keyFile),
    dsaEncoding: "ieee-p1363",
  });
  return `${unsigned}.${signature.toString("base64url")}`;
}

/**
 * Stands in for your app's provider code: one alert, token-authenticated, over HTTP/2.
 * Against Apple, apnsUrl is https://api.sandbox.push.apple.com and the system's roots are
 * trusted; against the mock, only its CA is trusted, for this connection only.
 */
function sendWelcome({ apnsUrl, caFile, keyFile, keyId, teamId, device }) {
  const payload = { aps: { alert: { title: "Welcome", body: "Thanks for signing up" }, sound: "default" } };
  return new Promise((resolve, reject) => {
    const session = http2.connect(apnsUrl, { ca: fs.readFileSync(caFile) });
    session.on("error", reject);
    const request = session.request({
      ":method": "POST",
      ":path": `/3/device/${device}`,
      authorization: `bearer ${providerToken(keyFile, keyId, teamId)}`,
      "apns-topic": TOPIC,
      "apns-push-type": "alert",
      "apns-priority": "10",
      "content-type": "application/json",
    });
    let headers = {};
    let body = "";
    request.setEncoding("utf8");
    request.setTimeout(10_000, () => request.close(http2.constants.NGHTTP2_CANCEL));
    request.on("response", (h) => (headers = h));
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      session.close();
      resolve({ status: headers[":status"], apnsId: headers["apns-id"], body });
    });
    request.on("error", (error) => {
      session.close();
      reject(error);
    });
    request.end(JSON.stringify(payload));
  });
}

let mock;
let work;
before(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "apns-mock-example-"));
  // A signing key made for this run, registered below so the mock checks every token's signature.
  await promisify(execFile)(BINARY, ["keys", "generate", "--key-id", KEY_ID, "--team-id", TEAM_ID, "--out", work]);
  // Unknown device tokens and key ids are refused, as Apple refuses them: the device comes from the
  // expectation file's setup, the key from the registration. The CA is the one the mock generated.
  mock = await startMock({ binary: BINARY, args: ["--strict-registry", "--expectations", EXPECTATIONS] });
  const publicKey = fs.readFileSync(path.join(work, `AuthKey_${KEY_ID}.pub.pem`), "utf8");
  await mock.client.putKey(KEY_ID, { teamId: TEAM_ID, publicKey });
});
after(async () => {
  await mock?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("the welcome push is delivered", async () => {
  // 1. Push, as the app would.
  const answer = await sendWelcome({
    apnsUrl: mock.apnsUrl, caFile: mock.caPath, keyFile: path.join(work, `AuthKey_${KEY_ID}.p8`),
    keyId: KEY_ID, teamId: TEAM_ID, device: DEVICE,
  });
  assert.equal(answer.status, 200, answer.body);

  // 2. Wait for the delivery instead of sleeping: it resolves as soon as it is recorded, and rejects
  //    with a WaitTimeout naming the closest records after 10 s.
  const [record] = await mock.client.wait({ count: 1, timeout: 10, token: DEVICE, "payload.aps.alert.title": "Welcome" });
  assert.equal(record.apnsId, answer.apnsId);
  assert.equal(record.topic, TOPIC);
  assert.equal(record.pushType, "alert");
  assert.equal(record.auth.method, "token");
  assert.equal(record.auth.signatureVerified, true);
  assert.equal(record.response.status, 200);

  // 3. Check the whole run against the expectation file; exit 0 when every expectation holds.
  const verify = await promisify(execFile)(BINARY, ["verify", EXPECTATIONS, "--admin", mock.adminUrl]).then(
    (result) => ({ status: 0, ...result }),
    (error) => ({ status: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
  assert.equal(verify.status, 0, `apns-mock verify exited ${verify.status}:\n${verify.stdout}${verify.stderr}`);
});
