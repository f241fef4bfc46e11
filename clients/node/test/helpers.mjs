// A provider's side for the tests: a JWT signed with the sample key and pushes over node:http2, and
// an application server's Web Push over node:https with a VAPID JWT.
import crypto from "node:crypto";
import fs from "node:fs";
import http2 from "node:http2";
import https from "node:https";
import { fileURLToPath } from "node:url";

export const KEY_FILE = process.env.APNS_MOCK_KEY_FILE ?? fileURLToPath(new URL("../../../certs/AuthKey_ABC123DEFG.p8", import.meta.url));
export const KEY_ID = "ABC123DEFG";
export const TEAM_ID = "DEF123GHIJ";
export const TOPIC = "com.example.app";

export function providerToken() {
  const part = (json) => Buffer.from(JSON.stringify(json)).toString("base64url");
  const unsigned = `${part({ alg: "ES256", kid: KEY_ID })}.${part({ iss: TEAM_ID, iat: Math.floor(Date.now() / 1000) })}`;
  const signature = crypto.sign("sha256", Buffer.from(unsigned), { key: fs.readFileSync(KEY_FILE), dsaEncoding: "ieee-p1363" });
  return `${unsigned}.${signature.toString("base64url")}`;
}

export const newToken = () => crypto.randomBytes(32).toString("hex");

/** One request over HTTP/2 trusting only the mock's CA; resolves to {status, headers, body}. */
export function push(mock, { path, headers = {}, payload }) {
  return new Promise((resolve, reject) => {
    const session = http2.connect(mock.apnsUrl, { ca: fs.readFileSync(mock.caPath) });
    session.on("error", reject);
    const request = session.request({
      ":method": "POST",
      ":path": path,
      authorization: `bearer ${providerToken()}`,
      ...headers,
    });
    let answer = {};
    let body = "";
    request.setEncoding("utf8");
    request.on("response", (h) => (answer = h));
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      session.close();
      resolve({ status: answer[":status"], headers: answer, body });
    });
    request.on("error", (error) => {
      session.close();
      reject(error);
    });
    request.end(JSON.stringify(payload));
  });
}

export const pushToDevice = (mock, token, payload, headers = {}) =>
  push(mock, { path: `/3/device/${token}`, headers: { "apns-topic": TOPIC, "apns-push-type": "alert", ...headers }, payload });

/**
 * An application server's VAPID `Authorization` for a push to `endpoint` (RFC 8292): a JWT
 * {typ: "JWT", alg: "ES256"}.{aud: the endpoint's origin, exp: an hour ahead, sub} signed ES256
 * (R||S) with `privateKey`, and `k`, the public key as base64url of its uncompressed point.
 */
export function vapidAuthorization(endpoint, privateKey, subject = "mailto:test@example.com") {
  const part = (json) => Buffer.from(JSON.stringify(json)).toString("base64url");
  const { host } = new URL(endpoint);
  const claims = { aud: `https://${host}`, exp: Math.floor(Date.now() / 1000) + 3600, sub: subject };
  const unsigned = `${part({ typ: "JWT", alg: "ES256" })}.${part(claims)}`;
  const signature = crypto.sign("sha256", Buffer.from(unsigned), { key: privateKey, dsaEncoding: "ieee-p1363" });
  const { x, y } = crypto.createPublicKey(privateKey).export({ format: "jwk" });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(x, "base64url"), Buffer.from(y, "base64url")]);
  return `vapid t=${unsigned}.${signature.toString("base64url")}, k=${point.toString("base64url")}`;
}

/** A Web Push (RFC 8030): POST to the endpoint over HTTPS trusting only the mock's CA; resolves to {status, headers, body}. */
export function webPush(mock, endpoint, { headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const request = https.request(endpoint, { method: "POST", ca: fs.readFileSync(mock.caPath), headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode, headers: response.headers, body: text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}
