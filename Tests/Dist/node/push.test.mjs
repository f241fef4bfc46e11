// The npm package from dist/, installed offline into an empty app: startMock() runs the binary the package carries.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFileSync, realpathSync } from "node:fs";
import http2 from "node:http2";
import path from "node:path";
import { test } from "node:test";
import { findBinary, startMock } from "apns-mock";

test("a push over HTTP/2 is recorded", async () => {
  assert.equal(process.env.APNS_MOCK_BIN, undefined);
  const packaged = realpathSync(path.resolve("node_modules/apns-mock/bin", `${process.platform}-${process.arch}`, "apns-mock"));
  assert.equal(realpathSync(findBinary()), packaged);
  const mock = await startMock();
  try {
    const device = randomBytes(32).toString("hex");
    const session = http2.connect(mock.apnsUrl, { ca: readFileSync(mock.caPath) });
    const status = await new Promise((resolve, reject) => {
      const request = session.request({ ":method": "POST", ":path": `/3/device/${device}`,
        authorization: `bearer ${mock.provider.token()}`, "apns-topic": "com.example.app", "apns-push-type": "alert" });
      request.on("response", (headers) => resolve(headers[":status"])).on("error", reject);
      request.end(JSON.stringify({ aps: { alert: "from the npm package" } }));
    });
    session.close();
    assert.equal(status, 200);
    const [record] = await mock.client.wait({ token: device, "payload.aps.alert": "from the npm package", timeout: 10 });
    assert.equal(record.response.status, 200);
  } finally {
    await mock.stop();
  }
});
