// Sends each push of a list on one HTTP/2 session, one after another, with its own payload and
// headers, and prints one JSON line: each push's status, apns-id and error reason.
// usage: node node_payloads.mjs PORT CA_FILE JWT PUSHES_JSON
//   PUSHES_JSON: [{"token": "...", "payload": "<raw body text>", "headers": {"apns-push-type": "alert", ...}}]
import http2 from "node:http2";
import fs from "node:fs";

const [port, caFile, jwt, pushesText] = process.argv.slice(2);
const pushes = JSON.parse(pushesText);
const session = http2.connect(`https://localhost:${port}`, { ca: fs.readFileSync(caFile) });
session.on("error", (error) => {
  console.error(String(error));
  process.exit(1);
});

function push(item) {
  return new Promise((resolve) => {
    const request = session.request({
      ":method": "POST",
      ":path": `/3/device/${item.token}`,
      authorization: `bearer ${jwt}`,
      "apns-topic": "com.example.app",
      ...item.headers,
    });
    const answer = { status: 0, body: "" };
    request.on("response", (headers) => {
      answer.status = headers[":status"];
      answer.apnsId = headers["apns-id"];
    });
    request.setEncoding("utf8");
    request.on("data", (chunk) => (answer.body += chunk));
    request.on("error", (error) => (answer.error = String(error.code ?? error)));
    request.on("close", () => {
      if (answer.body) answer.reason = JSON.parse(answer.body).reason;
      delete answer.body;
      resolve(answer);
    });
    request.end(item.payload);
  });
}

const results = [];
for (const item of pushes) results.push(await push(item));
console.log(JSON.stringify(results));
session.close();
