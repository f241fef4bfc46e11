// The package itself: its version is the project's.
import assert from "node:assert/strict";
import fs from "node:fs";
import { test } from "node:test";

const read = (relative) => fs.readFileSync(new URL(relative, import.meta.url), "utf8");

test("package.json states the version of Sources/APNSMock/APNSMockVersion.swift", () => {
  const [, swift] = /static\s+let\s+current\s*=\s*"([^"]+)"/.exec(read("../../../Sources/APNSMock/APNSMockVersion.swift"));
  assert.equal(JSON.parse(read("../package.json")).version, swift);
});
