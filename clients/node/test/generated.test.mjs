// The generated methods (generated.mjs) against the document the server serves and the server itself.
// A server of its own: these calls change server-wide state (faults, modes, the clock).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { AdminClient, AdminError, GeneratedAdminClient, OPERATIONS, WaitTimeout, startMock } from "../index.mjs";
import { newToken } from "./helpers.mjs";

// The operations the clients leave out: the dashboard's pages (a browser's) and /mcp (an assistant's).
const SKIPPED_PATHS = new Set(["/", "/dashboard.js", "/dashboard.css", "/mcp"]);
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

let mock;
before(async () => {
  mock = await startMock();
});
after(async () => {
  await mock?.stop();
});

/** The served document's operations: [operationId, METHOD, path], in its order (no YAML parser: its shape is known). */
function operationsOf(yaml) {
  const operations = [];
  let path;
  let method;
  for (const line of yaml.split("\n")) {
    let m;
    if ((m = /^  (\/\S*):\s*$/.exec(line))) path = m[1];
    else if ((m = /^    (\w+):\s*$/.exec(line)) && METHODS.includes(m[1])) method = m[1];
    else if ((m = /^      operationId:\s*(\w+)\s*$/.exec(line))) operations.push([m[1], method.toUpperCase(), path]);
  }
  return operations;
}

test("every operation of the served document is a method of AdminClient, under its operationId", async () => {
  const operations = operationsOf(await mock.client.openAPIDocument());
  const forClients = operations.filter(([, , path]) => !SKIPPED_PATHS.has(path));
  assert.ok(forClients.length >= 50, `${forClients.length} operations`);
  assert.equal(forClients.length, operations.length - 4);
  const missing = forClients.filter(([id]) => typeof AdminClient.prototype[id] !== "function").map(([id]) => id);
  assert.deepEqual(missing, []);
  assert.deepEqual(Object.entries(OPERATIONS), forClients.map(([id, method, path]) => [id, [method, path]]));
  for (const [id] of forClients) assert.ok(Object.hasOwn(GeneratedAdminClient.prototype, id), id);
  assert.equal(AdminClient.prototype.dashboard, undefined);
  assert.equal(AdminClient.prototype.postMCP, undefined);
});

test("generated server methods: health, info, the CA, the document, metrics", async () => {
  const client = mock.client;
  assert.equal((await client.health()).status, "ok");
  assert.equal((await client.info()).adminUrl, mock.adminUrl);
  assert.match(await client.caCertificate(), /^-----BEGIN CERTIFICATE-----/);
  assert.match(await client.openAPIDocument(), /openapi: 3\.1\.0/);
  assert.match(await client.metrics(), /# TYPE/);
});

test("generated device methods", async () => {
  const client = mock.client;
  const token = newToken();
  assert.equal((await client.putDevice(token, { topic: "com.example.app" })).token, token);
  assert.ok((await client.listDevices()).devices.some((d) => d.token === token));
  assert.equal((await client.getDevice(token)).topic, "com.example.app");
  assert.equal((await client.expireDevice(token)).state, "expired");
  assert.ok(Array.isArray((await client.deviceNotifications(token, { limit: 5 })).notifications));
  assert.equal(await client.deleteDevice(token), undefined);
  await assert.rejects(client.getDevice(token), (e) => e instanceof AdminError && e.status === 404);
});

test("generated fault methods", async () => {
  const client = mock.client;
  const rule = { match: { token: newToken() }, action: { respond: { status: 503, reason: "ServiceUnavailable" } } };
  assert.equal((await client.putFault("generated-1", rule)).id, "generated-1");
  assert.deepEqual((await client.getFault("generated-1")).action, rule.action);
  const added = await client.addFault(rule);
  assert.deepEqual((await client.listFaults()).faults.map((f) => f.id), ["generated-1", added.id]);
  assert.equal(await client.deleteFault("generated-1"), undefined);
  await assert.rejects(client.getFault("generated-1"), (e) => e instanceof AdminError && e.status === 404);
  assert.deepEqual(await GeneratedAdminClient.prototype.deleteFaults.call(client), { removed: 1 });
});

test("generated clock, mode and report methods", async () => {
  const client = mock.client;
  assert.deepEqual(Object.keys(await client.getClock()).sort(), ["mode", "now", "offsetMs"]);
  assert.ok((await GeneratedAdminClient.prototype.moveClock.call(client, { advance: "1m" })).offsetMs >= 60_000);
  assert.equal((await client.resetClock()).offsetMs, 0);
  assert.equal((await client.refuseTLS({ count: 1 })).refuseTls, 1);
  assert.equal((await client.stopRefusingTLS()).refuseTls, 0);
  assert.equal((await client.startUnavailable({ for: "5s" })).unavailable, true);
  assert.equal((await client.stopUnavailable()).unavailable, false);
  assert.ok(Array.isArray((await client.listConnections({ state: "open" })).connections));
  assert.ok(Array.isArray((await client.getReport({ window: "1h" })).providers));
  assert.ok(Array.isArray((await client.listKeys()).keys));
  assert.ok(Array.isArray((await client.listChannels()).channels));
});

test("generated delivery methods: a page, a free-form matcher field, a wait that times out", async () => {
  const client = mock.client;
  const page = await client.listDeliveries({ tokenPrefix: "abcdef", limit: 1, order: "desc" });
  assert.deepEqual(page.deliveries, []);
  assert.ok("next" in page && "total" in page && "dropped" in page);
  assert.deepEqual((await client.listDeliveries({ "payload.aps.badge": 3 })).deliveries, []);
  assert.deepEqual(await GeneratedAdminClient.prototype.deleteDeliveries.call(client, { tokenPrefix: "abcdef" }), { deleted: 0 });
  await assert.rejects(client.waitForDeliveries({ tokenPrefix: "abcdef", timeout: "100ms" }),
    (e) => e instanceof WaitTimeout && e.records.length === 0 && e.query.includes("tokenPrefix=abcdef"));
  await assert.rejects(client.listDeliveries({ tokn: "ab" }), (e) => e instanceof AdminError && e.code === "badParameter");
});
