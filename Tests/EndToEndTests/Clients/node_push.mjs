// Sends one push with Node's built-in http2 module and prints the answer as one JSON line.
// usage: node node_push.mjs PORT CA_FILE TOKEN JWT APNS_ID
import http2 from "node:http2";
import fs from "node:fs";

const [port, caFile, deviceToken, jwt, apnsId] = process.argv.slice(2);
const session = http2.connect(`https://localhost:${port}`, { ca: fs.readFileSync(caFile) });
session.on("error", (error) => {
  console.error(error);
  process.exit(2);
});
const request = session.request({
  ":method": "POST",
  ":path": `/3/device/${deviceToken}`,
  authorization: `bearer ${jwt}`,
  "apns-topic": "com.example.app",
  "apns-push-type": "alert",
  "apns-id": apnsId,
  "content-type": "application/json",
});
let status = 0;
let headers = {};
let body = "";
request.on("response", (h) => {
  status = h[":status"];
  headers = h;
});
request.setEncoding("utf8");
request.on("data", (chunk) => (body += chunk));
request.on("end", () => {
  console.log(JSON.stringify({ status, apnsId: headers["apns-id"], uniqueId: headers["apns-unique-id"] ?? null, body }));
  session.close();
});
request.end(JSON.stringify({ aps: { alert: "from node" } }));
