import assert from "node:assert/strict";
import fs from "node:fs";
import { after, before, test } from "node:test";
import { AdminError, EventBatch, WaitTimeout, queryString, recordLine, startMock } from "../index.mjs";
import { newToken, providerToken, push, pushToDevice } from "./helpers.mjs";

let mock;
before(async () => {
  mock = await startMock();
});
after(async () => {
  await mock?.stop();
});

test("startMock gives the addresses, a CA file and a client", async () => {
  assert.match(mock.apnsUrl, /^https:\/\/127\.0\.0\.1:\d+$/);
  assert.match(mock.channelsUrl, /^https:\/\/127\.0\.0\.1:\d+$/);
  const info = await mock.client.info();
  assert.equal(info.apnsUrl, mock.apnsUrl);
  assert.equal(info.adminUrl, mock.adminUrl);
  assert.equal(fs.readFileSync(mock.caPath, "utf8"), await mock.client.caPem());
  assert.equal((await mock.client.health()).status, "ok");
});

test("a push through node:http2 with the CA, then wait resolves to its record", async () => {
  const token = newToken();
  const answer = await pushToDevice(mock, token, { aps: { alert: { title: "Hi there" } } });
  assert.equal(answer.status, 200, answer.body);
  const [record] = await mock.client.wait({ count: 1, timeout: 10, token, "payload.aps.alert.title": "Hi there" });
  assert.equal(record.apnsId, answer.headers["apns-id"]);
  assert.equal(record.response.status, 200);
  const listed = await mock.client.deliveries({ token, payload: { aps: { alert: { title: "Hi there" } } } });
  assert.deepEqual(listed.map((r) => r.sequence), [record.sequence]);
  assert.equal((await mock.client.delivery(answer.headers["apns-id"])).sequence, record.sequence);
});

test("a wait that times out rejects with WaitTimeout carrying near misses", async () => {
  const token = newToken();
  await pushToDevice(mock, token, { aps: { alert: { title: "Hello" } } });
  const error = await mock.client.wait({ token, "payload.aps.alert.title": "Goodbye", timeout: "500ms" }).then(
    () => assert.fail("the wait should time out"),
    (e) => e,
  );
  assert.ok(error instanceof WaitTimeout);
  assert.deepEqual(error.records, []);
  assert.equal(error.nearMisses[0].record.token, token);
  assert.deepEqual(
    error.nearMisses[0].differences.map(({ field, expected, actual }) => ({ field, expected, actual })),
    [{ field: "payload.aps.alert.title", expected: "Goodbye", actual: "Hello" }],
  );
  assert.match(error.message, /expected Goodbye, got Hello/);
  assert.match(error.message, new RegExp(`dashboard: ${mock.adminUrl}/#filter=token%3D${token}`));
});

test("a timed-out wait's message is the server's explanation, did-you-mean included", async () => {
  const token = newToken();
  await pushToDevice(mock, token, { aps: { alert: { title: "Hi" } } });
  const error = await mock.client.wait({ token, "payload.aps.alert.titel": "Hi", timeout: "300ms" }).then(
    () => assert.fail("the wait should time out"),
    (e) => e,
  );
  assert.ok(error instanceof WaitTimeout);
  const served = await fetch(`${mock.adminUrl}/v1/deliveries/wait?${error.query}&count=1&timeout=300ms`);
  assert.equal(served.status, 408);
  const { explanation } = await served.json();
  assert.equal(error.message, explanation);
  assert.equal(error.explanation, explanation);
  assert.match(error.message, /\(did you mean payload\.aps\.alert\.title\?\)/);
  assert.equal(recordLine(error.nearMisses[0].record), error.nearMisses[0].record.summary);
});

test("an unknown matcher field rejects with the API's code and did-you-mean", async () => {
  await assert.rejects(mock.client.deliveries({ tokn: "ab" }), (error) => {
    assert.ok(error instanceof AdminError);
    assert.equal(error.status, 400);
    assert.equal(error.code, "badParameter");
    assert.match(error.apiMessage, /did you mean 'token'/);
    return true;
  });
});

test("fault rules: put creates then replaces, add with a used id is 409, the rule answers pushes", async () => {
  const token = newToken();
  const rule = { match: { token }, action: { respond: { status: 503, reason: "ServiceUnavailable" } } };
  const id = `node-${token.slice(0, 8)}`;
  assert.equal((await mock.client.putFault(id, rule)).id, id);
  assert.equal((await mock.client.putFault(id, { ...rule, select: { first: 1 } })).select.first, 1);
  await assert.rejects(mock.client.addFault({ id, ...rule }), (e) => e.code === "faultRuleExists" && e.status === 409);
  assert.equal((await pushToDevice(mock, token, { aps: { alert: "x" } })).status, 503);
  assert.equal((await pushToDevice(mock, token, { aps: { alert: "x" } })).status, 200);
  assert.equal((await mock.client.fault(id)).hits, 1);
  const [hit] = await mock.client.wait({ faultId: id });
  assert.equal(hit.response.reason, "ServiceUnavailable");
  await mock.client.deleteFault(id);
  assert.ok(!(await mock.client.faults()).some((r) => r.id === id));
});

test("events yield new records live", async () => {
  const token = newToken();
  const stream = mock.client.events({ token });
  const first = stream.next();
  let record;
  for (let attempt = 0; attempt < 50 && !record; attempt++) {
    await pushToDevice(mock, token, { aps: { alert: "live" } });
    record = await Promise.race([first, new Promise((resolve) => setTimeout(resolve, 200))]);
  }
  await stream.return();
  assert.equal(record?.value?.token, token);
});

test("a reader that fell behind gets an EventBatch, then records", async () => {
  // A server of its own with a store of 20 records: a reader more than 10 behind is summarised.
  const small = await startMock({ args: ["--record-capacity", "20"] });
  try {
    const token = newToken();
    // One provider token for every push: a new one per push would be refused (429).
    const authorization = `bearer ${providerToken()}`;
    for (let n = 0; n < 30; n++) {
      const answer = await pushToDevice(small, token, { aps: { alert: `n${n}` } }, { authorization });
      assert.equal(answer.status, 200, answer.body);
    }
    const stream = small.client.events({ since: 0 });
    const { value: batch } = await stream.next();
    assert.ok(batch instanceof EventBatch);
    assert.deepEqual([batch.from, batch.to, batch.count, batch.agedOut], [1, 25, 15, 10]);
    assert.deepEqual(batch.byStatus, { 200: 15 });
    assert.deepEqual(batch.byOutcome, { answered: 15 });
    const records = [];
    for (let n = 0; n < 5; n++) records.push((await stream.next()).value);
    await stream.return();
    assert.deepEqual(records.map((record) => record.sequence), [26, 27, 28, 29, 30]);
    assert.ok(!records.some((record) => record instanceof EventBatch));
    await assert.rejects(small.client.events({ behind: "sometimes" }).next(), (error) => error.code === "badParameter");
  } finally {
    await small.stop();
  }
});

test("the clock moves a provider token's age", async () => {
  // A server of its own: the clock is server-wide. A token older than an hour is expired (Apple).
  const own = await startMock();
  try {
    const token = newToken();
    const authorization = `bearer ${providerToken()}`;
    assert.equal((await pushToDevice(own, token, { aps: { alert: "now" } }, { authorization })).status, 200);
    const moved = await own.client.moveClock({ advance: "61m" });
    assert.ok(Math.abs(moved.offsetMs - 61 * 60_000) < 5_000, JSON.stringify(moved));
    const expired = await pushToDevice(own, token, { aps: { alert: "later" } }, { authorization });
    assert.equal(expired.status, 403);
    assert.match(expired.body, /ExpiredProviderToken/);
    assert.equal((await own.client.resetClock()).mode, "system");
    assert.ok(Math.abs((await own.client.clock()).offsetMs) < 5_000);
    await assert.rejects(own.client.moveClock({ set: 0 }), (error) => error.code === "badRequest");
    assert.throws(() => own.client.moveClock({}), TypeError);
  } finally {
    await own.stop();
  }
});

test("a phone saving power holds priority 5 until it stops, and a wait sees it delivered", async () => {
  // A server of its own (issue 32; Apple: the apns-priority row of "Sending notification requests
  // to APNs": priority 5 is delivered "based on power considerations").
  const own = await startMock({ args: ["--clock", "manual"] });
  try {
    const token = newToken();
    const authorization = `bearer ${providerToken()}`;
    const device = await own.client.registerDevice(token, { presence: "lowPower", backgroundPushesPerHour: 2 });
    assert.equal(device.presence, "lowPower");
    assert.equal(device.backgroundPushesPerHour, 2);
    const quiet = await pushToDevice(own, token, { aps: { alert: "later" } }, { authorization, "apns-priority": "5" });
    const urgent = await pushToDevice(own, token, { aps: { alert: "now" } }, { authorization, "apns-priority": "10" });
    assert.equal(quiet.status, 200);
    assert.equal((await own.client.delivery(urgent.headers["apns-id"])).delivery.state, "delivered");
    const held = await own.client.deliveries({ token, delivery: "stored" });
    assert.deepEqual(held.map((r) => r.apnsId), [quiet.headers["apns-id"]]);
    const waiting = own.client.wait({ token, delivery: "delivered", priority: 5, timeout: "5s" });
    await own.client.registerDevice(token, { presence: "online" });
    const [delivered] = await waiting;
    assert.equal(delivered.apnsId, quiet.headers["apns-id"]);
    await assert.rejects(own.client.registerDevice(token, { notifications: "muted" }), (error) => error.status === 400);
  } finally {
    await own.stop();
  }
});

test("verify takes the expectations as an object", async () => {
  const token = newToken();
  await pushToDevice(mock, token, { aps: { alert: { title: "Welcome" } } });
  const result = await mock.client.verify({
    expect: [{ name: "welcome", match: { token, payload: { aps: { alert: { title: "Welcome" } } } }, count: { atLeast: 1 }, within: "5s" },
      { name: "none rejected", match: { token, status: 400 }, count: { none: true } }],
  });
  assert.equal(result.passed, true);
  assert.equal(result.results.length, 2);
});

test("devices and channels: an unregistered device gets 410; a broadcast reaches a subscribed device", async () => {
  const gone = newToken();
  await mock.client.registerDevice(gone, { topic: "com.example.app" });
  assert.equal((await mock.client.unregisterDevice(gone)).state, "unregistered");
  const answer = await pushToDevice(mock, gone, { aps: { alert: "x" } });
  assert.equal(answer.status, 410);
  await mock.client.deleteDevice(gone);

  const device = newToken();
  const channel = await mock.client.createChannel({ bundleId: "com.example.app", environment: "sandbox" });
  assert.equal((await mock.client.subscribe(channel.channelId, device)).subscribers, 1);
  const others = [newToken(), newToken()];
  assert.deepEqual(await mock.client.subscribeMany(channel.channelId, [...others, device]),
    { channelId: channel.channelId, added: 2, subscribers: 3 });
  assert.deepEqual((await mock.client.channel(channel.channelId)).tokens, [device, ...others].sort());
  for (const other of others) await mock.client.unsubscribe(channel.channelId, other);
  assert.deepEqual((await mock.client.channels({ token: device })).map((c) => c.channelId), [channel.channelId]);
  const broadcast = await push(mock, {
    path: "/4/broadcasts/apps/com.example.app",
    headers: { "apns-channel-id": channel.channelId, "apns-push-type": "LiveActivity", "apns-priority": "10", "apns-expiration": "0" },
    payload: { aps: { timestamp: 1700000060, event: "update", "content-state": { score: "1-0" } } },
  });
  assert.equal(broadcast.status, 200, broadcast.body);
  const [delivered] = await mock.client.wait({ token: device, channelId: channel.channelId });
  assert.equal(delivered.viaChannel, true);
  await mock.client.deleteChannel(channel.channelId);
});

test("deviceNotifications: stored while offline, shown once online, one per collapse id", async () => {
  const device = newToken();
  assert.deepEqual((await mock.client.deviceNotifications(device)).notifications, []);
  await mock.client.registerDevice(device, { presence: "offline" });
  for (const title of ["Score 1-0", "Score 2-0"]) {
    const answer = await pushToDevice(mock, device, { aps: { alert: { title } } }, { "apns-collapse-id": "score" });
    assert.equal(answer.status, 200, answer.body);
  }
  let view = await mock.client.deviceNotifications(device);
  assert.equal(view.conditions.presence, "offline");
  assert.deepEqual(view.notifications, []);
  assert.deepEqual(view.stored.map((s) => [s.preview.title, s.cause]), [["Score 2-0", "offline"]]);
  await mock.client.registerDevice(device, { presence: "online" });
  view = await mock.client.deviceNotifications(device);
  assert.deepEqual(view.notifications.map((n) => n.preview.title), ["Score 2-0"]);
  assert.deepEqual(view.stored, []);
  assert.equal((await mock.client.deviceNotifications(device, { limit: 1 })).notificationCount, 1);
  await assert.rejects(mock.client.deviceNotifications("xyz"), (error) => error instanceof AdminError && error.code === "badParameter");
  await mock.client.deleteDevice(device);
});

test("queryString encodes a space as %20 and flattens nested objects", () => {
  assert.equal(queryString({ "payload.aps.alert.title": "Hi there", status: [200, 410], topic: null }),
    "payload.aps.alert.title=Hi%20there&status=200&status=410");
  assert.equal(queryString({ payload: { aps: { badge: 3 } } }), "payload.aps.badge=3");
});

test("deliveryLog reads a sandbox push's delivery log by its apns-unique-id", async () => {
  const token = newToken();
  const answer = await pushToDevice(mock, token, { aps: { alert: "logged" } });
  assert.equal(answer.status, 200, answer.body);
  const uniqueId = answer.headers["apns-unique-id"];
  const log = await mock.client.deliveryLog(uniqueId);
  assert.equal(log.uniqueId, uniqueId);
  assert.equal(log.token, token);
  assert.equal(log.apnsId, answer.headers["apns-id"]);
  assert.deepEqual(log.events.map((e) => e.event), ["received", "delivered"]);
  await assert.rejects(mock.client.deliveryLog("00000000-0000-4000-8000-000000000000"), (error) => {
    assert.ok(error instanceof AdminError);
    assert.equal(error.status, 404);
    assert.equal(error.code, "notFound");
    return true;
  });
});

test("devices() follows the pages of GET /v1/devices in token order", async () => {
  const own = await startMock();
  try {
    const tokens = ["05", "01", "04", "02", "03"].map((byte) => byte.repeat(32));
    assert.equal((await own.client.putDevices({ devices: tokens.map((token) => ({ token })) })).created, 5);
    const first = await own.client.listDevices({ limit: 2 });
    assert.equal(first.count, 5);
    assert.equal(first.nextAfter, [...tokens].sort()[1]);
    assert.deepEqual((await own.client.devices({ pageSize: 2 })).map((device) => device.token), [...tokens].sort());
    assert.deepEqual((await own.client.devices()).map((device) => device.token), [...tokens].sort());
  } finally {
    await own.stop();
  }
});
