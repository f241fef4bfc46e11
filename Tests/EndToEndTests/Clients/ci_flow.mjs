// A CI suite in another language, as a user would write it: start apns-mock, push with Node's
// built-in http2, wait for the delivery on the admin API, then run `apns-mock verify` on an
// expectation file. Prints one JSON line with what each step saw; exits 0 only if all held.
// usage: node ci_flow.mjs APNS_MOCK_BINARY REPO_ROOT JWT
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import http2 from "node:http2";

const [binary, root, jwt] = process.argv.slice(2);
const file = `${root}/expectations/welcome-alert.yaml`;
const token = fs.readFileSync(file, "utf8").match(/token: ([0-9a-f]{64})/)[1];
const result = {};
const fail = (why) => {
  result.error = String(why);
  console.log(JSON.stringify(result));
  server.kill("SIGTERM");
  process.exit(1);
};
setTimeout(() => fail("timed out"), 60_000).unref();

// 1. Start the server on free ports and read the ready line.
const server = spawn(binary, ["serve", "--port", "0", "--admin-port", "0", "--expectations", file], {
  cwd: root,
  stdio: ["ignore", "pipe", "inherit"],
});
const ready = await new Promise((resolve, reject) => {
  let text = "";
  server.stdout.on("data", (chunk) => {
    text += chunk;
    if (text.includes("\n")) resolve(text.split("\n")[0]);
  });
  server.on("exit", (code) => reject(new Error(`serve exited ${code}`)));
}).catch(fail);
const [, apnsPort, admin] = ready.match(/apns=https:\/\/127\.0\.0\.1:(\d+) admin=(\S+)/);

// 2. Wait for the delivery (started before the push: it must be woken by it).
const waited = new Promise((resolve, reject) => {
  http
    .get(`${admin}/v1/deliveries/wait?count=1&timeout=20&token=${token}&payload.aps.alert.title=Welcome`, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode, body: JSON.parse(body) }));
    })
    .on("error", reject);
});
await new Promise((r) => setTimeout(r, 200));

// 3. Push.
const session = http2.connect(`https://localhost:${apnsPort}`, { ca: fs.readFileSync(`${root}/certs/ca.pem`) });
result.push = await new Promise((resolve, reject) => {
  const request = session.request({
    ":method": "POST",
    ":path": `/3/device/${token}`,
    authorization: `bearer ${jwt}`,
    "apns-topic": "com.example.app",
    "apns-push-type": "alert",
  });
  request.on("response", (headers) => resolve(headers[":status"]));
  request.on("error", reject);
  request.end(JSON.stringify({ aps: { alert: { title: "Welcome", body: "from node" } } }));
}).catch(fail);
session.close();
const wait = await waited.catch(fail);
result.wait = wait.status;
result.waitedToken = wait.body.deliveries[0]?.token;

// 4. Verify the expectation file.
const verify = spawnSync(binary, ["verify", file, "--admin", admin], { encoding: "utf8" });
result.verify = verify.status;
result.report = verify.stdout;
server.kill("SIGTERM");
console.log(JSON.stringify(result));
process.exit(result.push === 200 && result.wait === 200 && result.verify === 0 ? 0 : 1);
