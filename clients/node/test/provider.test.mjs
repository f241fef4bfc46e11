// Provider credentials: mock.provider signs tokens the server accepts; it refuses any other
// signature because it knows the key.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { ProviderCredentials, connectMock, startMock } from "../index.mjs";
import { KEY_FILE, KEY_ID, TEAM_ID, newToken, push } from "./helpers.mjs";

let mock;
before(async () => {
  mock = await startMock();
});
after(async () => {
  await mock?.stop();
});

const pushWith = (server, authorization, token = newToken()) => push(server, {
  path: `/3/device/${token}`,
  headers: { authorization: `bearer ${authorization}`, "apns-topic": "com.example.app", "apns-push-type": "alert" },
  payload: { aps: { alert: "hi" } },
});
const withZeroSignature = (jwt) => `${jwt.slice(0, jwt.lastIndexOf("."))}.${Buffer.alloc(64).toString("base64url")}`;
const assertRefused = (answer) => {
  assert.equal(answer.status, 403, answer.body);
  assert.deepEqual(JSON.parse(answer.body), { reason: "InvalidProviderToken" });
};

test("a push signed with mock.provider.token() is accepted and recorded under its key id", async () => {
  const token = newToken();
  const answer = await pushWith(mock, mock.provider.token(), token);
  assert.equal(answer.status, 200, answer.body);
  const [record] = await mock.client.wait({ token, timeout: 10 });
  assert.equal(record.auth.method, "token");
  assert.equal(record.auth.keyId, mock.provider.keyId);
});

test("a token signed by another key, or not at all, is refused with 403 InvalidProviderToken", async () => {
  const impostor = ProviderCredentials.generate({ keyId: mock.provider.keyId, teamId: mock.provider.teamId });
  assertRefused(await pushWith(mock, impostor.token()));
  assertRefused(await pushWith(mock, withZeroSignature(mock.provider.token())));
});

test("the token is an ES256 JWT with a raw R||S signature, reused for 50 minutes", () => {
  let now = 1_700_000_000_000;
  const provider = ProviderCredentials.generate({ teamId: "TEAM123456" });
  provider.clock = () => now;
  const first = provider.token();
  const [header, claims, signature] = first.split(".");
  assert.deepEqual(JSON.parse(Buffer.from(header, "base64url")), { alg: "ES256", kid: provider.keyId });
  assert.deepEqual(JSON.parse(Buffer.from(claims, "base64url")), { iss: "TEAM123456", iat: 1_700_000_000 });
  assert.equal(Buffer.from(signature, "base64url").length, 64);
  assert.ok(crypto.verify("sha256", Buffer.from(`${header}.${claims}`), { key: provider.publicKeyPem, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url")));
  now += 49 * 60_000;
  assert.equal(provider.token(), first);
  now += 60_000;
  assert.notEqual(provider.token(), first);
});

test("a generated key is a .p8 file with a 10-character key id and team MOCKTEAM00", () => {
  const { keyPath, keyId, teamId } = mock.provider;
  assert.match(keyId, /^[A-Z0-9]{10}$/);
  assert.equal(teamId, "MOCKTEAM00");
  assert.ok(keyPath.endsWith(`AuthKey_${keyId}.p8`));
  assert.match(fs.readFileSync(keyPath, "utf8"), /^-----BEGIN PRIVATE KEY-----/);
  assert.equal(fs.statSync(keyPath).mode & 0o777, 0o600);
});

test("the mock knows its key again after a full reset; connectMock registers its own again", async () => {
  await mock.client.reset();
  assertRefused(await pushWith(mock, withZeroSignature(mock.provider.token())));
  assert.equal((await pushWith(mock, mock.provider.token())).status, 200);

  const remote = await connectMock(mock.adminUrl);
  try {
    assert.notEqual(remote.provider.keyId, mock.provider.keyId);
    assert.equal((await pushWith(remote, remote.provider.token())).status, 200);
    await remote.client.reset();
    assertRefused(await pushWith(remote, withZeroSignature(remote.provider.token())));
  } finally {
    await remote.stop();
  }
  assert.deepEqual((await mock.client.keys()).map((key) => key.keyId), [mock.provider.keyId]);
});

test("the user's own .p8 named by APNS_MOCK_PROVIDER_KEY, its key id read from AuthKey_<id>.p8", async () => {
  const saved = { ...process.env };
  process.env.APNS_MOCK_PROVIDER_KEY = KEY_FILE;
  delete process.env.APNS_MOCK_PROVIDER_KEY_ID;
  process.env.APNS_MOCK_PROVIDER_TEAM_ID = TEAM_ID;
  let own;
  try {
    own = await startMock();
  } finally {
    process.env = saved;
  }
  try {
    assert.deepEqual([own.provider.keyPath, own.provider.keyId, own.provider.teamId, own.provider.generated],
      [KEY_FILE, KEY_ID, TEAM_ID, false]);
    assert.equal((await pushWith(own, own.provider.token())).status, 200);
    assertRefused(await pushWith(own, ProviderCredentials.generate({ keyId: KEY_ID, teamId: TEAM_ID }).token()));
  } finally {
    await own.stop();
  }
  assert.ok(fs.existsSync(KEY_FILE), "the user's file is not the mock's to remove");
});

test("a key file not named by Apple needs its key id", () => {
  const renamed = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "key-")), "signing.p8");
  fs.copyFileSync(KEY_FILE, renamed);
  assert.throws(() => ProviderCredentials.fromFile(renamed), /give the key id/);
  assert.equal(ProviderCredentials.fromFile(renamed, { keyId: "KEY0000001" }).keyId, "KEY0000001");
  fs.rmSync(path.dirname(renamed), { recursive: true });
  assert.throws(() => ProviderCredentials.fromSettings({ providerKey: KEY_FILE, providerKeyId: "KEY-1" }, {}), /not letters and digits/);
});
