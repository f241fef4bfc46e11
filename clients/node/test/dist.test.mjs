// scripts/dist-npm.sh: the package carries the binary; `npm install --offline` of the .tgz into an
// empty app gives `npx apns-mock` and a findBinary() that needs no path. `echo` (an ELF that prints
// its arguments) stands in for apns-mock; test/package.test.mjs runs a real one from a package layout.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const VERSION = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "apns-mock-dist-"));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));
const echo = ["/bin/echo", "/usr/bin/echo"].find((file) => fs.existsSync(file));
const skip = process.platform !== "linux" || process.arch !== "x64" || !echo ? "needs linux-x64 and an echo binary" : false;

test("npm install --offline of the .tgz gives npx apns-mock and the packaged binary, mode 0755", { skip }, () => {
  const out = path.join(scratch, "out");
  const tgz = execFileSync(path.join(ROOT, "scripts", "dist-npm.sh"), ["--binary", echo, "--out", out], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  assert.equal(tgz, path.join(out, `apns-mock-${VERSION}.tgz`));

  const app = path.join(scratch, "app");
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", private: true }));
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--silent", tgz], { cwd: app, stdio: "ignore" });

  const packaged = path.join(app, "node_modules", "apns-mock", "bin", "linux-x64", "apns-mock");
  assert.equal(fs.statSync(packaged).mode & 0o777, 0o755);
  assert.deepEqual(fs.readFileSync(packaged), fs.readFileSync(echo));
  const env = { ...process.env, PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` };
  delete env.APNS_MOCK_BIN;
  const found = execFileSync(process.execPath, ["--input-type=module", "-e", 'import { findBinary } from "apns-mock"; console.log(findBinary())'],
    { cwd: app, env, encoding: "utf8" }).trim();
  assert.equal(found, packaged);
  // npm links node_modules/.bin/apns-mock to the launcher, which runs the packaged binary.
  assert.equal(execFileSync(path.join(app, "node_modules", ".bin", "apns-mock"), ["serve", "--help"], { env, encoding: "utf8" }), "serve --help\n");
});
