import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { AdminClient, connectMock, startMock } from "../index.mjs";
import { newToken, pushToDevice } from "./helpers.mjs";

test("a server that does not start rejects with its stderr", async () => {
  await assert.rejects(startMock({ args: ["--no-such-flag"] }), (error) => {
    assert.match(error.message, /exited with status/);
    assert.match(error.stderr, /no-such-flag/);
    return true;
  });
});

test("a server that prints no ready line in time is stopped, and the error carries its stderr", async () => {
  const silent = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "silent-")), "apns-mock");
  fs.writeFileSync(silent, "#!/bin/sh\necho 'still starting' >&2\nexec sleep 30\n", { mode: 0o755 });
  const started = Date.now();
  await assert.rejects(startMock({ binary: silent, startTimeoutMs: 500 }), (error) => {
    assert.match(error.message, /no ready line within 500 ms/);
    assert.match(error.stderr, /still starting/);
    return true;
  });
  assert.ok(Date.now() - started < 10_000, "stopped with SIGTERM, not after the sleep");
  fs.rmSync(path.dirname(silent), { recursive: true });
});

test("a missing binary says where to look", async () => {
  await assert.rejects(startMock({ binary: "/nonexistent/apns-mock" }), /apns-mock not found/);
});

test("modes are server-wide: a server of its own, with an admin token; connectMock; stop() ends the process", async () => {
  const mock = await startMock({ adminToken: "secret" });
  try {
    await assert.rejects(new AdminClient(mock.adminUrl).modes(), (e) => e.status === 401 && e.code === "unauthorized");
    assert.equal((await mock.client.setMode("unavailable")).unavailable, true);
    const answer = await pushToDevice(mock, newToken(), { aps: { alert: "x" } });
    assert.equal(answer.status, 503);
    assert.equal(JSON.parse(answer.body).reason, "ServiceUnavailable");
    assert.equal((await mock.client.clearMode("unavailable")).unavailable, false);
    assert.equal((await mock.client.reset()).reset, true);
    const remote = await connectMock(mock.adminUrl, { token: "secret" });
    assert.equal(remote.apnsUrl, mock.apnsUrl);
    assert.equal(remote.channelsUrl, mock.channelsUrl);
    assert.equal(remote.webPushUrl, mock.webPushUrl);
    const subscription = await remote.webPushSubscription();
    await remote.stop(); // the server stays; the subscription made through the connection goes
    assert.equal((await mock.client.getWebPushSubscription(subscription.id)).state, "deleted");
  } finally {
    await mock.stop();
  }
  assert.notEqual(mock.process.exitCode ?? mock.process.signalCode, null);
});
