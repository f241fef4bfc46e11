import assert from "node:assert/strict";
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

test("a missing binary says where to look", async () => {
  await assert.rejects(startMock({ binary: "/nonexistent/apns-mock" }), /apns-mock not found/);
});

test("modes are server-wide: a server of its own, with an admin token; stop() ends the process", async () => {
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
    await remote.stop();
  } finally {
    await mock.stop();
  }
  assert.notEqual(mock.process.exitCode ?? mock.process.signalCode, null);
});
