// A provider's test of what happens after the 200 (issue 32), with Node's built-in http2 and
// fetch: an uninstalled app's pushes are accepted and discarded, then answered 410 with the
// uninstall time; a phone saving power holds priority-5 pushes and gets them when it stops.
// Prints one JSON object with what it saw.
// usage: node node_after_the_200.mjs APNS_PORT ADMIN_URL CA_FILE JWT UNINSTALLED_TOKEN SAVING_TOKEN
// The server's clock is manual.
import http2 from "node:http2";
import fs from "node:fs";

const [port, admin, caFile, jwt, uninstalled, saving] = process.argv.slice(2);
const session = http2.connect(`https://localhost:${port}`, { ca: fs.readFileSync(caFile) });
session.on("error", (error) => {
  console.error(error);
  process.exit(2);
});

function push(token, headers, payload) {
  return new Promise((resolve, reject) => {
    const request = session.request({
      ":method": "POST",
      ":path": `/3/device/${token}`,
      authorization: `bearer ${jwt}`,
      "apns-topic": "com.example.app",
      ...headers,
    });
    let status = 0;
    let apnsId = null;
    let body = "";
    request.on("response", (h) => {
      status = h[":status"];
      apnsId = h["apns-id"];
    });
    request.setEncoding("utf8");
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => resolve({ status, apnsId, body: body ? JSON.parse(body) : null }));
    request.on("error", reject);
    request.end(JSON.stringify(payload));
  });
}

async function call(method, path, body) {
  const response = await fetch(admin + path, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const seen = {};
const alert = { "apns-push-type": "alert" };
// The app is uninstalled: APNs keeps accepting pushes until it learns of it (two minutes here).
const put = await call("PUT", `/v1/devices/${uninstalled}`, { installed: false, uninstallGrace: "2m" });
seen.uninstalledAt = put.body.uninstalledAt;
seen.beforeTheGrace = await push(uninstalled, alert, { aps: { alert: "still there?" } });
seen.beforeTheGraceDelivery = (await call("GET", `/v1/deliveries/${seen.beforeTheGrace.apnsId}`)).body.delivery;
await call("POST", "/v1/clock", { advance: "3m" });
seen.afterTheGrace = await push(uninstalled, alert, { aps: { alert: "anyone?" } });

// The phone saves power: priority 5 waits, priority 10 goes through.
await call("PUT", `/v1/devices/${saving}`, { presence: "lowPower" });
seen.quiet = await push(saving, { ...alert, "apns-priority": "5" }, { aps: { alert: "later is fine" } });
seen.urgent = await push(saving, { ...alert, "apns-priority": "10" }, { aps: { alert: "now" } });
seen.whileSaving = {
  quiet: (await call("GET", `/v1/deliveries/${seen.quiet.apnsId}`)).body.delivery,
  urgent: (await call("GET", `/v1/deliveries/${seen.urgent.apnsId}`)).body.delivery,
};
const waiting = call("GET", `/v1/deliveries/wait?apnsId=${seen.quiet.apnsId}&delivery=delivered&timeout=20s`);
await new Promise((resolve) => setTimeout(resolve, 300));
await call("PUT", `/v1/devices/${saving}`, { presence: "online" });
const waited = await waiting;
seen.wait = { status: waited.status, deliveries: waited.body.deliveries };
session.close();
console.log(JSON.stringify(seen));
