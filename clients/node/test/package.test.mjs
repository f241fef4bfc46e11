// The package itself: its version is the project's, and which binary startMock runs: {binary},
// then $APNS_MOCK_BIN, then the binary the package carries for this platform, then PATH.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { findBinary, packagedPlatforms } from "../index.mjs";
import { newToken, push } from "./helpers.mjs";

const read = (relative) => fs.readFileSync(new URL(relative, import.meta.url), "utf8");
const PACKAGE = fileURLToPath(new URL("..", import.meta.url));

test("package.json states the version of Sources/APNSMock/APNSMockVersion.swift", () => {
  const [, swift] = /static\s+let\s+current\s*=\s*"([^"]+)"/.exec(read("../../../Sources/APNSMock/APNSMockVersion.swift"));
  assert.equal(JSON.parse(read("../package.json")).version, swift);
});

test("package.json's bin runs bin/apns-mock.mjs, which the published files include", () => {
  const manifest = JSON.parse(read("../package.json"));
  assert.deepEqual(manifest.bin, { "apns-mock": "bin/apns-mock.mjs" });
  assert.ok(manifest.files.includes("bin/"));
  assert.match(read("../bin/apns-mock.mjs"), /^#!\/usr\/bin\/env node\n/);
});

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "apns-mock-lookup-"));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

function fakeBinary(directory) {
  fs.mkdirSync(directory, { recursive: true });
  const file = path.join(directory, "apns-mock");
  fs.writeFileSync(file, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  return file;
}

/** A copy of this package carrying `binary` (a symlink) as bin/linux-x64/apns-mock, with its launcher. */
function packageCarrying(binary) {
  const directory = fs.mkdtempSync(path.join(scratch, "package-"));
  for (const file of ["index.mjs", "generated.mjs", "package.json"]) fs.copyFileSync(path.join(PACKAGE, file), path.join(directory, file));
  fs.mkdirSync(path.join(directory, "bin", "linux-x64"), { recursive: true });
  fs.copyFileSync(path.join(PACKAGE, "bin", "apns-mock.mjs"), path.join(directory, "bin", "apns-mock.mjs"));
  fs.symlinkSync(binary, path.join(directory, "bin", "linux-x64", "apns-mock"));
  return directory;
}

test("findBinary: {binary}, then APNS_MOCK_BIN, then the packaged binary of this platform, then PATH", () => {
  const [given, environment, onPath] = ["given", "environment", "path"].map((name) => fakeBinary(path.join(scratch, name)));
  const packageDirectory = packageCarrying(fakeBinary(path.join(scratch, "built")));
  const packaged = path.join(packageDirectory, "bin", "linux-x64", "apns-mock");
  const linux = { platform: "linux", arch: "x64", packageDirectory };
  const env = { APNS_MOCK_BIN: environment, PATH: path.dirname(onPath) };
  assert.equal(findBinary({ ...linux, binary: given, env }), given);
  assert.equal(findBinary({ ...linux, env }), environment);
  assert.equal(findBinary({ ...linux, env: { PATH: env.PATH } }), packaged);
  assert.equal(findBinary({ ...linux, arch: "arm64", env: { PATH: env.PATH } }), onPath);
  assert.deepEqual(packagedPlatforms(packageDirectory), ["linux-x64"]);
});

test("findBinary skips the package's own launcher on PATH (node_modules/.bin/apns-mock)", () => {
  const packageDirectory = packageCarrying(fakeBinary(path.join(scratch, "built-2")));
  const dotBin = fs.mkdtempSync(path.join(scratch, "dot-bin-"));
  fs.symlinkSync(path.join(packageDirectory, "bin", "apns-mock.mjs"), path.join(dotBin, "apns-mock"));
  fs.chmodSync(path.join(packageDirectory, "bin", "apns-mock.mjs"), 0o755);
  assert.throws(() => findBinary({ platform: "darwin", arch: "arm64", packageDirectory, env: { PATH: dotBin } }),
    /carries the binary for linux-x64 only, and this is darwin-arm64/);
});

test("on another platform startMock rejects naming the platform and what the package carries", async () => {
  if (!process.env.APNS_MOCK_BIN) return assert.fail("set APNS_MOCK_BIN");
  const packageDirectory = packageCarrying(process.env.APNS_MOCK_BIN);
  const { startMock } = await import(path.join(packageDirectory, "index.mjs"));
  const saved = { ...process.env };
  delete process.env.APNS_MOCK_BIN;
  process.env.PATH = "/nonexistent";
  try {
    await assert.rejects(startMock({ platform: "darwin", arch: "arm64" }), (error) => {
      assert.match(error.message, /this package carries the binary for linux-x64 only, and this is darwin-arm64 \(process\.platform darwin, process\.arch arm64\)/);
      assert.match(error.message, /pass \{binary\}, set APNS_MOCK_BIN, or put it on PATH/);
      return true;
    });
    await assert.rejects(startMock({ platform: "linux", arch: "arm64" }), /carries the binary for linux-x64 only, and this is linux-arm64/);
    // On linux-x64 the packaged binary runs, with no path given anywhere.
    const mock = await startMock({ platform: "linux", arch: "x64" });
    try {
      const answer = await push(mock, {
        path: `/3/device/${newToken()}`, payload: { aps: { alert: "hi" } },
        headers: { authorization: `bearer ${mock.provider.token()}`, "apns-topic": "com.example.app", "apns-push-type": "alert" },
      });
      assert.equal(answer.status, 200, answer.body);
      assert.equal(fs.realpathSync(mock.process.spawnfile), fs.realpathSync(saved.APNS_MOCK_BIN));
    } finally {
      await mock.stop();
    }
  } finally {
    process.env = saved;
  }
});
