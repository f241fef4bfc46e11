// A scripted provider for the behaviour report: pushes on HTTP/2 sessions with provider tokens it
// mints itself (ES256 with node:crypto), following a list of steps, and prints one JSON line with
// each push's status, reason and apns-id.
// usage: node node_provider.mjs PORT CA_FILE KEY_FILE KEY_ID TEAM_ID SPEC_JSON
//   SPEC_JSON: {"steps": [{"token": "...", "apnsId"?: "...", "pushType"?: "alert" | null,
//               "priority"?: "10", "payload"?: {...}, "mint"?: bool, "iatOffset"?: seconds,
//               "newSession"?: bool, "pauseMs"?: number}]}
//   mint: sign a new provider token for this push (iat = now + iatOffset); the first push mints one.
//   newSession: open a new HTTP/2 session for this push (the previous one is closed).
import http2 from "node:http2";
import crypto from "node:crypto";
import fs from "node:fs";

const [port, caFile, keyFile, keyID, teamID, specText] = process.argv.slice(2);
const spec = JSON.parse(specText);
const ca = fs.readFileSync(caFile);
const key = crypto.createPrivateKey(fs.readFileSync(keyFile));

const base64url = (data) => Buffer.from(data).toString("base64url");

function mint(iatOffset) {
  const header = base64url(JSON.stringify({ alg: "ES256", kid: keyID }));
  const claims = base64url(JSON.stringify({ iss: teamID, iat: Math.floor(Date.now() / 1000) + (iatOffset ?? 0) }));
  const signature = crypto.sign("sha256", Buffer.from(`${header}.${claims}`), { key, dsaEncoding: "ieee-p1363" });
  return `${header}.${claims}.${base64url(signature)}`;
}

function connect() {
  const session = http2.connect(`https://localhost:${port}`, { ca });
  session.on("error", () => {});
  return new Promise((resolve) => session.on("remoteSettings", () => resolve(session)));
}

function push(session, step, jwt) {
  return new Promise((resolve) => {
    const headers = {
      ":method": "POST",
      ":path": `/3/device/${step.token}`,
      authorization: `bearer ${jwt}`,
      "apns-topic": "com.example.app",
      "apns-priority": step.priority ?? "10",
    };
    const pushType = step.pushType === undefined ? "alert" : step.pushType;
    if (pushType !== null) headers["apns-push-type"] = pushType;
    if (step.apnsId) headers["apns-id"] = step.apnsId;
    const request = session.request(headers);
    const answer = { status: 0, body: "" };
    request.setTimeout(5000, () => request.close(http2.constants.NGHTTP2_CANCEL));
    request.on("response", (h) => {
      answer.status = h[":status"];
      answer.apnsId = h["apns-id"];
    });
    request.setEncoding("utf8");
    request.on("data", (chunk) => (answer.body += chunk));
    request.on("error", (error) => (answer.error = String(error.code ?? error)));
    request.on("close", () => {
      if (answer.body) answer.reason = JSON.parse(answer.body).reason;
      delete answer.body;
      resolve(answer);
    });
    request.end(JSON.stringify(step.payload ?? { aps: { alert: { title: "Hello", body: "from node" } } }));
  });
}

const results = [];
let session = null;
let jwt = null;
for (const step of spec.steps) {
  if (!session || step.newSession) {
    if (session) session.close();
    session = await connect();
  }
  if (!jwt || step.mint) jwt = mint(step.iatOffset);
  results.push(await push(session, step, jwt));
  if (step.pauseMs) await new Promise((r) => setTimeout(r, step.pauseMs));
}
session.close();
console.log(JSON.stringify({ results }));
