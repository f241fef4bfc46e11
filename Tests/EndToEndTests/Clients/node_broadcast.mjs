// A Live Activity broadcast flow with Node's built-in http2 module, as a provider runs it:
// create a channel (channel-management port), read it, list the app's channels, broadcast an
// update (APNs port), delete the channel, broadcast again. Prints one JSON object: every answer's
// status, the headers that matter and the body.
// usage: node node_broadcast.mjs APNS_PORT CHANNELS_PORT CA_FILE (--token JWT | --cert CERT KEY)
import http2 from "node:http2";
import fs from "node:fs";

const [apnsPort, channelsPort, caFile, mode, ...credentials] = process.argv.slice(2);
const tls = { ca: fs.readFileSync(caFile) };
const auth = {};
if (mode === "--token") {
  auth.authorization = `bearer ${credentials[0]}`;
} else {
  tls.cert = fs.readFileSync(credentials[0]);
  tls.key = fs.readFileSync(credentials[1]);
}

function exchange(session, headers, body) {
  return new Promise((resolve, reject) => {
    const request = session.request({ ...auth, ...headers });
    let response = {};
    let data = "";
    request.on("response", (h) => (response = h));
    request.setEncoding("utf8");
    request.on("data", (chunk) => (data += chunk));
    request.on("end", () =>
      resolve({
        status: response[":status"],
        requestId: response["apns-request-id"] ?? null,
        apnsId: response["apns-id"] ?? null,
        uniqueId: response["apns-unique-id"] ?? null,
        channelId: response["apns-channel-id"] ?? null,
        contentType: response["content-type"] ?? null,
        body: data,
      }),
    );
    request.on("error", reject);
    request.end(body);
  });
}

const channels = http2.connect(`https://localhost:${channelsPort}`, tls);
const apns = http2.connect(`https://localhost:${apnsPort}`, tls);
for (const session of [channels, apns]) {
  session.on("error", (error) => {
    console.error(error);
    process.exit(2);
  });
}
const app = "/1/apps/com.example.app";
const created = await exchange(
  channels,
  { ":method": "POST", ":path": `${app}/channels` },
  JSON.stringify({ "message-storage-policy": 1, "push-type": "LiveActivity" }),
);
const id = created.channelId;
const read = await exchange(channels, { ":method": "GET", ":path": `${app}/channels`, "apns-channel-id": id });
const list = await exchange(channels, { ":method": "GET", ":path": `${app}/all-channels` });
const update = JSON.stringify({ aps: { timestamp: 1700000000, event: "update", "content-state": { score: "1-0" } } });
const broadcastHeaders = {
  ":method": "POST",
  ":path": "/4/broadcasts/apps/com.example.app",
  "apns-channel-id": id,
  "apns-push-type": "Liveactivity",
  "apns-priority": "5",
  "apns-expiration": "1900000000",
};
const broadcast = await exchange(apns, broadcastHeaders, update);
const deleted = await exchange(channels, { ":method": "DELETE", ":path": `${app}/channels`, "apns-channel-id": id });
const afterDelete = await exchange(apns, broadcastHeaders, update);
console.log(JSON.stringify({ created, read, list, broadcast, deleted, afterDelete }));
channels.close();
apns.close();
