import assert from "node:assert/strict";
import crypto from "node:crypto";
import { after, before, test } from "node:test";
import { AdminError, WebPushSubscription, applicationServerKeyText, startMock } from "../index.mjs";
import { vapidAuthorization, webPush } from "./helpers.mjs";

let mock;
before(async () => {
  mock = await startMock();
});
after(async () => {
  await mock?.stop();
});

test("a test's Web Push subscription takes a VAPID-signed push (201, apns-id, its record) and is unsubscribed when the test ends", async (t) => {
  let subscription;
  await t.test("the test that subscribes", async (inner) => {
    subscription = await mock.webPushSubscription({ test: inner, origin: "https://example.com" });
    assert.ok(subscription instanceof WebPushSubscription);
    assert.equal(mock.webPushUrl, (await mock.client.info()).webPushUrl);
    assert.equal(subscription.endpoint, `${mock.webPushUrl}/${subscription.id}`);
    assert.equal(subscription.audience, mock.webPushUrl);
    assert.deepEqual(JSON.parse(JSON.stringify(subscription)),
      { endpoint: subscription.endpoint, expirationTime: null, keys: subscription.keys });
    assert.equal(subscription.applicationServerKey, applicationServerKeyText(subscription.vapidPrivateKey));
    assert.equal(subscription.vapidKeys.publicKey, subscription.applicationServerKey);
    assert.equal(Buffer.from(subscription.vapidKeys.privateKey, "base64url").length, 32);

    // the application server: an empty body is allowed; TTL is required
    const answer = await webPush(mock, subscription.endpoint, {
      headers: { authorization: vapidAuthorization(subscription.endpoint, subscription.vapidPrivateKey), ttl: "60" },
    });
    assert.equal(answer.status, 201, answer.body);
    assert.ok(answer.headers["apns-id"]);

    const [record] = await mock.client.wait({ kind: "webPush", subscriptionId: subscription.id, timeout: 10 });
    assert.equal(record.apnsId.toLowerCase(), answer.headers["apns-id"].toLowerCase());
    assert.equal(record.token, subscription.id);
    assert.equal(record.webPush.vapid.subject, "mailto:test@example.com");
  });

  assert.equal((await mock.client.getWebPushSubscription(subscription.id)).state, "deleted");
  const gone = await webPush(mock, subscription.endpoint, {
    headers: { authorization: vapidAuthorization(subscription.endpoint, subscription.vapidPrivateKey), ttl: "60" },
  });
  assert.equal(gone.status, 410, gone.body);
});

test("a subscription for the application server's own key: a private KeyObject is kept, a public key is not", async (t) => {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
  const whole = await mock.webPushSubscription({ applicationServerKey: privateKey, test: t });
  assert.equal(whole.vapidPrivateKey, privateKey);
  const publicOnly = await mock.client.webPushSubscription({ applicationServerKey: publicKey, expirationTime: 4102444800000, test: t });
  assert.equal(publicOnly.applicationServerKey, whole.applicationServerKey);
  assert.equal(publicOnly.vapidPrivateKey, null);
  assert.equal(publicOnly.vapidKeys, null);
  assert.equal(publicOnly.expirationTime, 4102444800000);
  assert.equal((await publicOnly.unsubscribe()).state, "deleted");
  assert.throws(() => applicationServerKeyText(Buffer.alloc(64)), /65 bytes/);
});

test("a push held while the browser is offline (delivery stored) is delivered with the same apns-id once setDevice puts it online", async (t) => {
  const subscription = await mock.webPushSubscription({ test: t, device: { presence: "offline" } });
  assert.deepEqual(subscription.device, { presence: "offline", periods: [], notifications: "enabled" });

  const answer = await webPush(mock, subscription.endpoint, {
    headers: { authorization: vapidAuthorization(subscription.endpoint, subscription.vapidPrivateKey), ttl: "60" },
  });
  assert.equal(answer.status, 201, answer.body);
  const apnsId = answer.headers["apns-id"].toLowerCase();
  const [stored] = await mock.client.wait({ kind: "webPush", subscriptionId: subscription.id, delivery: "stored", timeout: 10 });
  assert.equal(stored.apnsId.toLowerCase(), apnsId);

  const now = await subscription.setDevice({ presence: "online" });
  assert.equal(now.device.presence, "online");
  assert.equal(subscription.device.presence, "online");
  assert.deepEqual(subscription.json, now);
  const [delivered] = await mock.client.wait({ kind: "webPush", subscriptionId: subscription.id, delivery: "delivered", timeout: 10 });
  assert.equal(delivered.apnsId.toLowerCase(), apnsId);
  assert.equal(delivered.sequence, stored.sequence);
  assert.deepEqual(delivered.deliveryHistory.map((step) => step.state), ["stored", "delivered"]);

  await assert.rejects(subscription.setDevice({ installed: false }), (error) => {
    assert.ok(error instanceof AdminError);
    assert.equal(error.status, 400);
    assert.match(error.apiMessage, /installed/);
    return true;
  });
});

test("endpointBase puts the endpoint's path on the URL the caller reaches; the VAPID audience follows", async (t) => {
  const subscription = await mock.webPushSubscription({ test: t, endpointBase: "https://127.0.0.1:40443/" });
  assert.equal(subscription.endpoint, `https://127.0.0.1:40443/${subscription.id}`);
  assert.equal(subscription.audience, "https://127.0.0.1:40443");
  assert.deepEqual(subscription.vapidClaims(), { sub: "mailto:test@example.com", aud: "https://127.0.0.1:40443" });
  assert.equal(JSON.parse(JSON.stringify(subscription)).endpoint, subscription.endpoint);
  assert.equal(subscription.json.endpoint, `${mock.webPushUrl}/${subscription.id}`);
});
