// Starts a push, sends half its body, signals the server (SIGTERM), and finishes the body only
// after the server's GOAWAY arrived. Prints the GOAWAY and the answer as one JSON line.
// usage: node node_sigterm.mjs PORT CA_FILE TOKEN JWT SERVER_PID
import http2 from "node:http2";
import fs from "node:fs";

const [port, caFile, deviceToken, jwt, serverPid] = process.argv.slice(2);
const session = http2.connect(`https://localhost:${port}`, { ca: fs.readFileSync(caFile) });
const result = { goaway: null, status: 0, body: "", closed: false };
session.on("error", (error) => {
  result.error = String(error);
});
const payload = JSON.stringify({ aps: { alert: "sent across a shutdown" } });
session.on("remoteSettings", () => {
  if (result.started) return;
  result.started = true;
  const request = session.request({
    ":method": "POST",
    ":path": `/3/device/${deviceToken}`,
    authorization: `bearer ${jwt}`,
    "apns-topic": "com.example.app",
    "apns-push-type": "alert",
  });
  request.on("response", (headers) => (result.status = headers[":status"]));
  request.setEncoding("utf8");
  request.on("data", (chunk) => (result.body += chunk));
  request.on("close", () => {
    session.on("close", () => {
      result.closed = true;
      console.log(JSON.stringify(result));
    });
  });
  request.write(payload.slice(0, 10));
  session.on("goaway", (errorCode, lastStreamID, opaqueData) => {
    result.goaway = { errorCode, lastStreamID, debug: opaqueData ? opaqueData.toString() : "" };
    request.end(payload.slice(10));
  });
  // The half-sent request is on the server before the signal.
  setTimeout(() => process.kill(Number(serverPid), "SIGTERM"), 300);
});
setTimeout(() => {
  result.timedOut = true;
  console.log(JSON.stringify(result));
  process.exit(3);
}, 15000).unref();
