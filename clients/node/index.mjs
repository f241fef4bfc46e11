// apns-mock from Node: an admin API client (every operation of the admin API's document, generated in
// generated.mjs, and shorter names that call them), startMock(), which runs the apns-mock binary on
// free ports, and ProviderCredentials, a token-signing key the mock knows. Node built-ins only
// (fetch, child_process, fs, crypto).
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { GeneratedAdminClient } from "./generated.mjs";

export { GeneratedAdminClient, OPERATIONS } from "./generated.mjs";

const READY_LINE = /^apns-mock ready apns=(\S+) admin=(\S+)(?: channels=(\S+))?(?: webpush=(\S+))?/m;

/** An error answer of the admin API: `{"error": {"code", "message"}}`. */
export class AdminError extends Error {
  constructor(status, code, message, method = "", urlPath = "") {
    super(`${method ? `${method} ${urlPath}: ` : ""}${status} ${code}: ${message}`);
    this.name = "AdminError";
    this.status = status;
    this.code = code;
    this.apiMessage = message;
    this.method = method;
    this.path = urlPath;
  }
}

/**
 * A `batch` event of `GET /v1/events`: records the server summarised instead of sending them one
 * by one, because the reader fell behind. The admin API's fields: `from` and `to` (the sequence
 * numbers covered), `count` (the matching records among them), `byStatus`, `byOutcome`,
 * `agedOut` (records that had left the store first) and `reason`. Tell it from a record with
 * `item instanceof EventBatch`.
 */
export class EventBatch {
  constructor(fields) {
    Object.assign(this, fields);
  }
}

/** One record as one line: the `summary` the server renders for it (as `apns-mock deliveries` prints it). */
export function recordLine(record) {
  return record.summary ?? `#${record.sequence ?? "?"}`;
}

/**
 * `GET /v1/deliveries/wait` answered 408: fewer than `count` records matched in time. Its message
 * is the server's `explanation`, the same words `apns-mock wait` and Python's `Client.wait` print.
 */
export class WaitTimeout extends Error {
  constructor({ count, timeout, query, records, nearMisses, dashboard, explanation }) {
    super(explanation ?? `timed out after ${typeof timeout === "number" ? `${timeout}s` : timeout}: ${records.length} of ${count} matched ${query ?? ""}`.trim());
    this.name = "WaitTimeout";
    Object.assign(this, { count, timeout, query, records, nearMisses, dashboard, explanation });
  }
}

const enc = (value) => encodeURIComponent(typeof value === "boolean" ? (value ? "true" : "false") : String(value));

/**
 * The query string of a matcher: keys are the query's field names (`token`, `tokenPrefix`,
 * `"payload.aps.alert.title"`); a nested object is flattened (`{payload: {aps: {badge: 3}}}` is
 * `payload.aps.badge=3`); an array repeats the parameter; null and undefined are left out.
 * Spaces are `%20` (a `+` is a plus sign to the admin API).
 */
export function queryString(match = {}) {
  const pairs = [];
  const add = (name, value) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) for (const v of value) add(name, v);
    else if (typeof value === "object") for (const [k, v] of Object.entries(value)) add(`${name}.${k}`, v);
    else pairs.push(`${enc(name)}=${enc(value)}`);
  };
  for (const [name, value] of Object.entries(match)) add(name, value);
  return pairs.join("&");
}

/** The dashboard's address filtered by a query string: `{adminUrl}/#filter=<query, percent-encoded>`. */
export function dashboardLink(adminUrl, query = "", record) {
  const parts = [];
  if (query) parts.push(`filter=${encodeURIComponent(query)}`);
  if (record != null) parts.push(`record=${record}`);
  return `${adminUrl.replace(/\/$/, "")}/${parts.length ? `#${parts.join("&")}` : ""}`;
}

const seg = (value) => encodeURIComponent(String(value));

function seconds(duration) {
  if (typeof duration === "number") return duration;
  const m = /^([0-9.]+)(ms|s|m|h)?$/.exec(String(duration).trim());
  if (!m) return 300;
  return Number(m[1]) * { ms: 0.001, s: 1, m: 60, h: 3600 }[m[2] ?? "s"];
}

/**
 * The admin API of one apns-mock server. Every operation of the admin API's document is a method
 * under its operationId (`listDeliveries`, `putDevice`, `refuseTLS`: GeneratedAdminClient, in
 * generated.mjs); the shorter names below (`deliveries`, `wait`, `addFault`, …) call them.
 */
export class AdminClient extends GeneratedAdminClient {
  /** @param {string} adminUrl  @param {{token?: string, timeoutMs?: number}} [options] */
  constructor(adminUrl, { token, timeoutMs = 30_000 } = {}) {
    super();
    this.adminUrl = adminUrl.replace(/\/$/, "");
    this.token = token;
    this.timeoutMs = timeoutMs;
  }

  /** Callbacks of afterReset(). */
  #afterReset = [];

  async #send(method, urlPath, { query, body, timeoutMs, ok = [], signal, headers = {} } = {}) {
    const qs = query ? queryString(query) : "";
    const url = `${this.adminUrl}${urlPath}${qs ? `?${qs}` : ""}`;
    const init = {
      method,
      headers: { ...headers, ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) },
      signal: signal ?? AbortSignal.timeout(timeoutMs ?? this.timeoutMs),
    };
    if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(url, init);
    if (response.status >= 400 && !ok.includes(response.status)) {
      const text = await response.text();
      let code = "http";
      let message = text.trim() || response.statusText;
      try {
        ({ code, message } = JSON.parse(text).error);
      } catch {}
      throw new AdminError(response.status, code, message, method, urlPath);
    }
    return response;
  }

  async #json(method, urlPath, options) {
    const response = await this.#send(method, urlPath, options);
    const text = await response.text();
    return text ? JSON.parse(text) : null;
  }

  /**
   * One operation of the document (what every generated method calls): resolves to its answer's
   * JSON, its text when it is not JSON (`/v1/ca.pem`, `/metrics`, the document), or undefined when
   * empty (204). `waitForDeliveries` rejects with WaitTimeout on a 408; `deliveryEvents` gives an
   * async iterator over the stream (see `events`).
   */
  _operation(operationId, method, urlPath, query, body, { headers = {} } = {}) {
    const sent = Object.fromEntries(Object.entries(headers).filter(([, v]) => v != null).map(([k, v]) => [k, String(v)]));
    if (operationId === "deliveryEvents") return this.#stream(query, sent);
    if (operationId === "waitForDeliveries") return this.#wait(query);
    return (async () => {
      const response = await this.#send(method, urlPath, {
        query, body, headers: sent, timeoutMs: OPERATION_TIMEOUTS_MS[operationId],
      });
      const text = await response.text();
      if (!text) return undefined;
      return /json/.test(response.headers.get("content-type") ?? "") ? JSON.parse(text) : text;
    })();
  }

  async #wait(query) {
    const { count, timeout, since, before, ...conditions } = query;
    const response = await this.#send("GET", "/v1/deliveries/wait", {
      query,
      timeoutMs: (seconds(timeout ?? 10) + 30) * 1000,
      ok: [408],
    });
    const answer = await response.json();
    if (response.status === 408) {
      const text = queryString(conditions);
      throw new WaitTimeout({
        count: count ?? 1, timeout: timeout ?? 10, query: text, records: answer.deliveries ?? [],
        nearMisses: answer.nearMisses ?? [], dashboard: dashboardLink(this.adminUrl, text),
        explanation: answer.explanation,
      });
    }
    return answer;
  }

  /** The dashboard filtered to the records that match. */
  dashboardLink(match = {}) {
    return dashboardLink(this.adminUrl, queryString(match));
  }

  // server: health(), info() and metrics() are the generated methods.
  caPem() { return this.caCertificate(); }
  openapi() { return this.openAPIDocument(); }
  /** `POST /v1/reset`, then each `afterReset` callback. */
  async reset({ closeConnections = false } = {}) {
    const answer = await super.reset(closeConnections ? { closeConnections: true } : {});
    for (const callback of [...this.#afterReset]) await callback(this);
    return answer;
  }
  /**
   * Calls `callback(client)` after each `reset()` through this client: a full reset drops what was
   * registered at run time (keys, devices), and connectMock registers its provider key again this
   * way. A reset by another client or by `apns-mock reset` does not call it.
   */
  afterReset(callback) {
    this.#afterReset.push(callback);
  }

  // deliveries
  /** The matching records; every page unless `limit` is given (`since`, `before`, `order` too). */
  async deliveries(match = {}) {
    let query = { ...match };
    const records = [];
    for (;;) {
      const page = await this.listDeliveries(query);
      records.push(...page.deliveries);
      if (match.limit != null || page.next == null || page.deliveries.length === 0) return records;
      query = { ...query, [match.order === "desc" ? "before" : "since"]: page.next };
    }
  }
  delivery(apnsId) { return this.getDelivery(apnsId); }
  preview(apnsId) { return this.getDeliveryPreview(apnsId); }
  simulatorFile(apnsId) { return this.getDeliverySimulatorFile(apnsId); }
  deliveryLog(uniqueId) { return this.getDeliveryLog(uniqueId); }
  async deleteDeliveries(match = {}) { return (await super.deleteDeliveries(match)).deleted; }

  /** Resolves to the records once `count` match; rejects with WaitTimeout (near misses) on a 408. */
  async wait({ count = 1, timeout = 10, ...match } = {}) {
    return (await this.waitForDeliveries({ ...match, count, timeout })).deliveries;
  }

  /**
   * New matching records, live (`GET /v1/events`), as an async iterator. `since` or `lastEventId`
   * resume after a sequence number; `signal` ends the stream (so does leaving a `for await`).
   * A reader that falls behind (more than 10,000 records, or half the store) gets `EventBatch`
   * items summarising runs of records until it is close again; `behind: "end"` asks for every
   * record instead, and an `AdminError` with code `dropped` when records left the store first.
   * (`deliveryEvents(params)` is the same stream without `signal`.)
   */
  events({ lastEventId, signal, ...match } = {}) {
    return this.#stream(match, lastEventId != null ? { "last-event-id": String(lastEventId) } : {}, signal);
  }

  async *#stream(query, headers, signal) {
    const controller = new AbortController();
    const abort = () => controller.abort();
    signal?.addEventListener("abort", abort);
    try {
      const response = await this.#send("GET", "/v1/events", { query, signal: controller.signal, headers });
      const decoder = new TextDecoder();
      let buffer = "";
      let event = "message";
      let data = [];
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let newline;
        while ((newline = buffer.indexOf("\n")) >= 0) {
          const line = buffer.slice(0, newline).replace(/\r$/, "");
          buffer = buffer.slice(newline + 1);
          if (line === "") {
            if (data.length) {
              const parsed = JSON.parse(data.join("\n"));
              if (event === "dropped") {
                throw new AdminError(200, "dropped", `the event stream missed ${parsed.missed} records: ${parsed.reason}`, "GET", "/v1/events");
              }
              yield event === "batch" ? new EventBatch(parsed) : parsed;
            }
            event = "message";
            data = [];
          } else if (!line.startsWith(":")) {
            const colon = line.indexOf(":");
            const name = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
            if (name === "event") event = value;
            else if (name === "data") data.push(value);
          }
        }
      }
    } catch (error) {
      if (!(controller.signal.aborted && error.name === "AbortError")) throw error;
    } finally {
      signal?.removeEventListener("abort", abort);
      controller.abort();
    }
  }

  // verify(expectations) is the generated method: `{expect: [...]}` or the bare list.

  // keys: putKey(keyId, body) and deleteKey(keyId) are the generated methods.
  async keys() { return (await this.listKeys()).keys; }
  key(keyId) { return this.getKey(keyId); }

  // devices: deleteDevice, unregisterDevice, expireDevice and deviceNotifications are generated.
  /** Every registered device, ascending by token (the pages of `GET /v1/devices` followed, `pageSize` a call). */
  async devices({ pageSize = 100000 } = {}) {
    const devices = [];
    let after;
    for (;;) {
      const page = await this.listDevices(after === undefined ? { limit: pageSize } : { after, limit: pageSize });
      devices.push(...page.devices);
      if (page.nextAfter === undefined) return devices;
      after = page.nextAfter;
    }
  }
  device(token) { return this.getDevice(token); }
  registerDevice(token, body = {}) { return this.putDevice(token, body); }

  // channels: createChannel(body) and deleteChannel(channelId) are generated.
  async channels(query = {}) { return (await this.listChannels(query)).channels; }
  channel(channelId) { return this.getChannel(channelId); }
  subscribe(channelId, token) { return this.subscribeDevice(channelId, token); }
  subscribeMany(channelId, tokens) { return this.subscribeDevices(channelId, { tokens }); }
  async unsubscribe(channelId, token) { await this.unsubscribeDevice(channelId, token); }
  broadcastCapability(bundleId) { return this.getBroadcastCapability(bundleId); }
  /** `setBroadcastCapability(bundleId, true)`, or with the body `{enabled}` as the document has it. */
  setBroadcastCapability(bundleId, enabled) {
    return super.setBroadcastCapability(bundleId, typeof enabled === "boolean" ? { enabled } : enabled);
  }

  // faults: addFault(rule), putFault(id, rule) and deleteFault(id) are generated.
  async faults() { return (await this.listFaults()).faults; }
  fault(id) { return this.getFault(id); }
  async deleteFaults() { return (await super.deleteFaults()).removed; }

  // behaviors and modes: disableBehavior(name) is generated.
  async behaviors() { return (await this.listBehaviors()).behaviors; }
  /** `enableBehavior(name, {lockout})`, or with the body `{name, lockout}` as the document has it. */
  async enableBehavior(name, { lockout } = {}) {
    const body = typeof name === "string" ? (lockout != null ? { name, lockout } : { name }) : name;
    return (await super.enableBehavior(body)).behaviors;
  }
  modes() { return this.getModes(); }
  /** `shutdown`, `unavailable` (`{for: "30s"}`), `refuse-tls` (`{count: N}`); server-wide. */
  setMode(mode, query = {}) {
    const start = { shutdown: () => this.startShutdown(), unavailable: () => this.startUnavailable(query),
      "refuse-tls": () => this.refuseTLS(query) }[mode];
    if (start && (mode !== "shutdown" || Object.keys(query).length === 0)) return start();
    return this.#json("POST", `/v1/modes/${seg(mode)}`, { query });
  }
  clearMode(mode) {
    const stop = { shutdown: () => this.stopShutdown(), unavailable: () => this.stopUnavailable(),
      "refuse-tls": () => this.stopRefusingTLS() }[mode];
    return stop ? stop() : this.#json("DELETE", `/v1/modes/${seg(mode)}`);
  }

  // the clock (server-wide): resetClock() is generated.
  clock() { return this.getClock(); }
  /** Forward by `{advance: "61m"}`, or to `{set: epochMs}` (not before the newest record). */
  moveClock({ advance, set } = {}) {
    if ((advance == null) === (set == null)) throw new TypeError("moveClock takes one of advance and set");
    const forward = typeof advance === "number" ? `${advance}s` : advance;
    return super.moveClock(advance != null ? { advance: forward } : { set });
  }

  // connections and report
  async connections(query = {}) { return (await this.listConnections(query)).connections; }
  report(query = {}) { return this.getReport(query); }

  // Web Push: listWebPushSubscriptions, getWebPushSubscription and deleteWebPushSubscription are generated.
  /**
   * A Web Push subscription made as a browser makes one (`POST /v1/webpush/subscriptions`), as a
   * WebPushSubscription. `applicationServerKey`: base64url text, 65 bytes or an EC P-256
   * KeyObject; left out, a P-256 VAPID key pair is generated (`vapidPrivateKey`, `vapidKeys`).
   * `origin`, `expirationTime` (epoch ms). `device`: its browser's conditions from the start
   * (`{presence: "offline"}`; see WebPushSubscription.setDevice). `endpointBase`: the endpoint's
   * origin replaced (the Web Push URL as the caller reaches it, such as a container's published
   * port). `test`: a node:test TestContext (anything with `after(fn)`); the subscription is
   * unsubscribed when that test ends.
   */
  webPushSubscription(options = {}) {
    return makeWebPushSubscription(this, options);
  }
}

// Operations that may take longer than the client's timeout: verify waits up to each
// expectation's `within` (at most 300 s).
const OPERATION_TIMEOUTS_MS = { verify: 330_000 };

// -- provider credentials ------------------------------------------------------------------------

export const DEFAULT_TEAM_ID = "MOCKTEAM00";
// Apple refuses a connection whose token changes more often than every 20 minutes (429
// TooManyProviderTokenUpdates) and a token older than an hour (403 ExpiredProviderToken).
export const TOKEN_REUSE_SECONDS = 50 * 60;
const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const base64url = (data) => Buffer.from(data).toString("base64url");

/**
 * What a provider needs to push to the mock with token authentication, as Apple's are given to a
 * team: a P-256 signing key (`keyPath`, a .p8 file), its `keyId` and the `teamId`, and `token()`,
 * the ES256 provider token they make. The mock knows the key (startMock starts it with the key in
 * its setup; connectMock registers it with `PUT /v1/keys/{keyId}`), so a token not signed with it
 * is refused with 403 InvalidProviderToken.
 */
export class ProviderCredentials {
  #token = "";
  #issuedAt = 0;

  /** @param {{privateKey: crypto.KeyObject, keyId: string, teamId?: string, keyPath?: string, generated?: boolean, clock?: () => number}} fields */
  constructor({ privateKey, keyId, teamId = DEFAULT_TEAM_ID, keyPath = "", generated = false, clock = () => Date.now() }) {
    if (privateKey?.asymmetricKeyType !== "ec" || privateKey.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
      throw new TypeError("a provider token signing key is an EC P-256 key (Apple's .p8)");
    }
    for (const [name, value] of [["key id", keyId], ["team id", teamId]]) {
      if (!/^[A-Za-z0-9]+$/.test(value ?? "")) {
        throw new TypeError(`the ${name} '${value}' is not letters and digits (Apple's are 10, e.g. ABC123DEFG)`);
      }
    }
    this.privateKey = privateKey;
    this.keyId = keyId;
    this.teamId = teamId;
    /** The .p8 file (PKCS#8 PEM) holding the key; "" for a generated key not yet written. */
    this.keyPath = keyPath;
    /** True for a key made by generate() (written by write()), false for a file's. */
    this.generated = generated;
    this.clock = clock;
  }

  /** A new P-256 key; `keyId` defaults to 10 random letters and digits, `teamId` to MOCKTEAM00. */
  static generate({ keyId, teamId } = {}) {
    const { privateKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
    keyId ??= Array.from(crypto.randomBytes(10), (byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join("");
    return new ProviderCredentials({ privateKey, keyId, teamId: teamId ?? DEFAULT_TEAM_ID, generated: true });
  }

  /** The key of a .p8 file; `keyId` defaults to the one in Apple's file name, AuthKey_<key id>.p8. */
  static fromFile(keyPath, { keyId, teamId } = {}) {
    if (keyId == null) {
      const named = /^AuthKey_([A-Za-z0-9]+)\.p8$/.exec(path.basename(keyPath));
      if (!named) {
        throw new TypeError(`${keyPath}: give the key id (providerKeyId, or $APNS_MOCK_PROVIDER_KEY_ID): the file is not named AuthKey_<key id>.p8`);
      }
      keyId = named[1];
    }
    let privateKey;
    try {
      privateKey = crypto.createPrivateKey(fs.readFileSync(keyPath));
    } catch (error) {
      throw new TypeError(`${keyPath}: not a readable PEM private key (${error.message})`);
    }
    return new ProviderCredentials({ privateKey, keyId, teamId: teamId ?? DEFAULT_TEAM_ID, keyPath });
  }

  /**
   * The credentials a test run uses: the .p8 file `providerKey` (else $APNS_MOCK_PROVIDER_KEY) with
   * `providerKeyId` and `providerTeamId` (else $APNS_MOCK_PROVIDER_KEY_ID, $APNS_MOCK_PROVIDER_TEAM_ID);
   * without a file, a generated key.
   */
  static fromSettings({ providerKey, providerKeyId, providerTeamId } = {}, env = process.env) {
    const key = providerKey || env.APNS_MOCK_PROVIDER_KEY || undefined;
    const keyId = providerKeyId || env.APNS_MOCK_PROVIDER_KEY_ID || undefined;
    const teamId = providerTeamId || env.APNS_MOCK_PROVIDER_TEAM_ID || undefined;
    return key ? ProviderCredentials.fromFile(key, { keyId, teamId }) : ProviderCredentials.generate({ keyId, teamId });
  }

  /** Writes a generated key to `directory/AuthKey_<key id>.p8` (mode 0600) unless its file is there; returns keyPath. */
  write(directory) {
    if (this.generated && !(this.keyPath && fs.existsSync(this.keyPath))) {
      fs.mkdirSync(directory, { recursive: true });
      this.keyPath = path.join(directory, `AuthKey_${this.keyId}.p8`);
      fs.writeFileSync(this.keyPath, this.privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
    }
    return this.keyPath;
  }

  /** The public half, PEM `PUBLIC KEY`: what the mock verifies tokens with. */
  get publicKeyPem() {
    return crypto.createPublicKey(this.privateKey).export({ type: "spki", format: "pem" });
  }

  /** The body of `PUT /v1/keys/{keyId}`: a team-scoped key for both environments. */
  keyBody() {
    return { teamId: this.teamId, environment: "both", publicKey: this.publicKeyPem };
  }

  /** An expectation file's `setup:` registering the key (`serve --expectations` applies it at start and on reset). */
  setupDocument() {
    return { setup: { keys: [{ keyId: this.keyId, ...this.keyBody() }] } };
  }

  /** `PUT /v1/keys/{keyId}` through an AdminClient. */
  register(client) {
    return client.putKey(this.keyId, this.keyBody());
  }

  /**
   * The provider token: an ES256 JWT (header `{alg: "ES256", kid}`, claims `{iss: teamId, iat: now}`)
   * with the JOSE signature (R||S, 64 bytes). The same string for 50 minutes, then a new one.
   */
  token() {
    const now = Math.floor(this.clock() / 1000);
    if (!this.#token || now - this.#issuedAt >= TOKEN_REUSE_SECONDS || now < this.#issuedAt) {
      this.#token = this.sign({ iss: this.teamId, iat: now });
      this.#issuedAt = now;
    }
    return this.#token;
  }

  /** A JWT with this key's header and the given claims, signed now (not cached): for an unusual token. */
  sign(claims) {
    const signingInput = `${base64url(JSON.stringify({ alg: "ES256", kid: this.keyId }))}.${base64url(JSON.stringify(claims))}`;
    const signature = crypto.sign("sha256", Buffer.from(signingInput), { key: this.privateKey, dsaEncoding: "ieee-p1363" });
    return `${signingInput}.${signature.toString("base64url")}`;
  }
}

// -- Web Push ------------------------------------------------------------------------------------

/** What a VAPID `sub` claim says when the test names no contact of its own. */
export const DEFAULT_VAPID_SUBJECT = "mailto:test@example.com";

function isKeyObject(value) {
  return value instanceof crypto.KeyObject;
}

/**
 * The `applicationServerKey` a page passes to `pushManager.subscribe`: the VAPID public key as an
 * uncompressed P-256 point (65 bytes, 0x04 || X || Y), base64url without padding. Takes that text
 * as it is, the 65 bytes (a Buffer or Uint8Array), or a `node:crypto` EC P-256 KeyObject (public
 * or private: a private key's public half).
 */
export function applicationServerKeyText(key) {
  if (typeof key === "string") return key;
  if (isKeyObject(key)) {
    if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
      throw new TypeError("a VAPID key is an EC P-256 key");
    }
    const { x, y } = (key.type === "private" ? crypto.createPublicKey(key) : key).export({ format: "jwk" });
    return Buffer.concat([Buffer.from([4]), Buffer.from(x, "base64url"), Buffer.from(y, "base64url")]).toString("base64url");
  }
  if (key instanceof Uint8Array) {
    if (key.length !== 65 || key[0] !== 4) {
      throw new TypeError("an applicationServerKey's bytes are an uncompressed P-256 point: 65 bytes starting 0x04");
    }
    return Buffer.from(key).toString("base64url");
  }
  throw new TypeError("an applicationServerKey is base64url text, 65 bytes or an EC P-256 KeyObject");
}

/**
 * A Web Push subscription the mock made, as a browser makes one for a page that calls
 * `pushManager.subscribe({applicationServerKey})` (`POST /v1/webpush/subscriptions`).
 *
 * What the page would send its application server: `endpoint`, `keys` (`p256dh`, `auth`) and
 * `expirationTime`, together `toJSON()` (the W3C PushSubscription JSON, which Web Push libraries
 * take as it is; `JSON.stringify(subscription)` gives it). `id` names it in the admin API and in
 * the records of the pushes sent to it (`kind: "webPush"`, `subscriptionId: id`).
 *
 * When the key pair was generated for the test (or its private key given), `vapidPrivateKey` is
 * the KeyObject the application server signs its VAPID JWTs with, and `vapidKeys` the pair as
 * base64url text (`{publicKey, privateKey}`, the shape web-push's `generateVAPIDKeys()` gives and
 * its `setVapidDetails(subject, publicKey, privateKey)` takes). The mock checks every push's
 * `Authorization: vapid t=<JWT>, k=<key>`: `k` the subscription's `applicationServerKey`, the
 * JWT signed ES256 with its key, `aud` the endpoint's origin (`audience`), `exp` at most 24 hours
 * ahead, `sub` a mailto: or https: URL.
 *
 * Its browser is a device to the delivery model: `device` is its conditions (`presence`,
 * `periods`, `notifications`), given at creation (`device`) or by `setDevice(conditions)`. A push
 * accepted while the browser is offline is held (its record's `delivery.state` is `stored`) until
 * it comes online.
 */
export class WebPushSubscription {
  #client;

  /** @param {object} answer the admin API's subscription JSON  @param {{client?: AdminClient, vapidPrivateKey?: crypto.KeyObject | null, endpointBase?: string}} [options] */
  constructor(answer, { client, vapidPrivateKey = null, endpointBase } = {}) {
    /** The admin API's answer as it came (`createdAt`, `state` as created, …), replaced by setDevice's. */
    this.json = structuredClone(answer);
    this.id = answer.id;
    /** Where a provider POSTs pushes: the answer's endpoint, or its path on `endpointBase`. */
    this.endpoint = endpointBase ? endpointBase.replace(/\/+$/, "") + new URL(answer.endpoint).pathname : answer.endpoint;
    this.expirationTime = answer.expirationTime ?? null;
    this.keys = { p256dh: answer.keys.p256dh, auth: answer.keys.auth };
    this.origin = answer.origin ?? null;
    this.applicationServerKey = answer.applicationServerKey;
    this.vapidPrivateKey = vapidPrivateKey;
    this.#client = client;
  }

  /** The W3C PushSubscription JSON: `{endpoint, expirationTime, keys}` (a new object each call). */
  toJSON() {
    return { endpoint: this.endpoint, expirationTime: this.expirationTime, keys: { ...this.keys } };
  }

  /** The endpoint's origin (`https://127.0.0.1:<port>`): the VAPID JWT's `aud`. */
  get audience() {
    return new URL(this.endpoint).origin;
  }

  /** `{publicKey, privateKey}` as base64url (the 65-byte point, the 32-byte private value), or null without the private key. */
  get vapidKeys() {
    if (!this.vapidPrivateKey) return null;
    return { publicKey: this.applicationServerKey, privateKey: this.vapidPrivateKey.export({ format: "jwk" }).d };
  }

  /** VAPID claims for a push to it: `{sub: subject, aud: audience}` (a new object each call). */
  vapidClaims(subject = DEFAULT_VAPID_SUBJECT) {
    return { sub: subject, aud: this.audience };
  }

  /** Its browser's conditions as the server last answered: `{presence, periods, notifications}` (a copy). */
  get device() {
    return structuredClone(this.json.device ?? {});
  }

  /**
   * Sets its browser's conditions (`PUT /v1/webpush/subscriptions/{id}/device`): `presence`
   * (`online`, `offline`, `lowPower`) with `until` (epoch ms) or `for` (`"10m"`), or a schedule
   * of `periods`, and `notifications` (`enabled`, `disabled`). What the browser holds is judged
   * again: setting `online` delivers what was held while offline. Resolves to the subscription as
   * the API then gives it (also `json`); an unknown field rejects with AdminError 400 naming it.
   */
  async setDevice(conditions = {}) {
    if (!this.#client) throw new Error("this subscription was made without a client: use AdminClient.putWebPushDevice");
    const answer = await this.#client.putWebPushDevice(this.id, conditions);
    this.json = structuredClone(answer);
    return answer;
  }

  /** Unsubscribes (`DELETE /v1/webpush/subscriptions/{id}`): a push to it is then answered 410. Resolves to the subscription as the API then gives it. */
  unsubscribe() {
    if (!this.#client) throw new Error("this subscription was made without a client: DELETE it through AdminClient.deleteWebPushSubscription");
    return this.#client.deleteWebPushSubscription(this.id);
  }
}

/**
 * Subscribes through `client` as a browser does: `applicationServerKey` (base64url text, 65 bytes
 * or an EC P-256 KeyObject; left out: a P-256 key pair generated), `origin`, `expirationTime`
 * (epoch milliseconds), `device` (the browser's conditions), `endpointBase` (the endpoint's
 * origin replaced). With `test` (a node:test TestContext, or anything with `after(fn)`), it is
 * unsubscribed when that test ends.
 */
async function makeWebPushSubscription(client, { applicationServerKey, origin, expirationTime, device, endpointBase, test } = {}) {
  let vapidPrivateKey = null;
  if (applicationServerKey == null) {
    applicationServerKey = vapidPrivateKey = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
  } else if (isKeyObject(applicationServerKey) && applicationServerKey.type === "private") {
    vapidPrivateKey = applicationServerKey;
  }
  const body = { applicationServerKey: applicationServerKeyText(applicationServerKey) };
  if (origin != null) body.origin = origin;
  if (expirationTime != null) body.expirationTime = expirationTime;
  if (device != null) body.device = device;
  const subscription = new WebPushSubscription(await client.createWebPushSubscription(body), { client, vapidPrivateKey, endpointBase });
  test?.after(() => unsubscribeQuietly(subscription));
  return subscription;
}

/** Unsubscribes; one already gone with its server (a reset: 404) is no error. */
async function unsubscribeQuietly(subscription) {
  try {
    await subscription.unsubscribe();
  } catch (error) {
    if (!(error instanceof AdminError && error.status === 404)) throw error;
  }
}

// -- the binary ----------------------------------------------------------------------------------

const PACKAGE_DIRECTORY = path.dirname(fileURLToPath(import.meta.url));
const BINARY_NAME = "apns-mock";

/** The platforms whose binary this package carries (`bin/<platform>-<arch>/apns-mock`), e.g. ["linux-x64"]. */
export function packagedPlatforms(packageDirectory = PACKAGE_DIRECTORY) {
  const bin = path.join(packageDirectory, "bin");
  if (!fs.existsSync(bin)) return [];
  return fs.readdirSync(bin).filter((name) => fs.existsSync(path.join(bin, name, BINARY_NAME))).sort();
}

function realpath(file) {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

function executable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The apns-mock binary startMock runs: `binary` if given, else $APNS_MOCK_BIN, else the one this
 * package carries for this platform (`bin/<process.platform>-<process.arch>/apns-mock`, in the
 * package scripts/dist-npm.sh builds), else `apns-mock` on PATH. Throws when none is found, naming
 * the platform it runs on and the ones the package carries. `platform`, `arch`, `env` and
 * `packageDirectory` stand in for the process's (for tests).
 */
export function findBinary({ binary, env = process.env, platform = process.platform, arch = process.arch, packageDirectory = PACKAGE_DIRECTORY } = {}) {
  if (binary) return binary;
  if (env.APNS_MOCK_BIN) return env.APNS_MOCK_BIN;
  const here = `${platform}-${arch}`;
  const packaged = path.join(packageDirectory, "bin", here, BINARY_NAME);
  if (executable(packaged)) return packaged;
  // node_modules/.bin/apns-mock is this package's launcher (bin/apns-mock.mjs), not a binary.
  const launcher = realpath(path.join(packageDirectory, "bin", "apns-mock.mjs"));
  for (const directory of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(directory, BINARY_NAME);
    if (executable(candidate) && realpath(candidate) !== launcher) return candidate;
  }
  const carried = packagedPlatforms(packageDirectory);
  const error = new Error(carried.length
    ? `apns-mock: this package carries the binary for ${carried.join(", ")} only, and this is ${here} (process.platform ${platform}, process.arch ${arch}); none on PATH either: build apns-mock for ${here} and pass {binary}, set APNS_MOCK_BIN, or put it on PATH`
    : `apns-mock not found: pass {binary}, set APNS_MOCK_BIN, install the apns-mock package that carries the binary (scripts/dist-npm.sh), or put apns-mock on PATH`);
  error.code = "APNS_MOCK_NOT_FOUND";
  throw error;
}

function replaceWildcard(url, host) {
  if (!url) return url;
  const parsed = new URL(url);
  if (["0.0.0.0", "[::]", "::"].includes(parsed.hostname)) parsed.hostname = host;
  return parsed.toString().replace(/\/$/, "");
}

/**
 * Starts `apns-mock serve --port 0 --admin-port 0 ...args` in a new temporary directory with its
 * own XDG_STATE_HOME, waits for the ready line, and fetches the CA (`GET /v1/ca.pem`) into
 * `caPath`. `binary`: as findBinary() chooses it (the given path, $APNS_MOCK_BIN, the binary this
 * package carries, PATH). Rejects with the process's stderr when it exits or prints no ready line
 * within `startTimeoutMs`.
 *
 * `provider` (ProviderCredentials) is a key the server knows from the start and after every
 * `POST /v1/reset` (it is started with the key in an expectation file's setup): the .p8 file
 * `providerKey` (else $APNS_MOCK_PROVIDER_KEY) with `providerKeyId` and `providerTeamId` (else their
 * environment variables), or a key generated for this mock, written into its directory.
 */
export async function startMock({ binary, args = [], adminToken, env = {}, startTimeoutMs = 30_000, stopTimeoutMs = 10_000,
  providerKey, providerKeyId, providerTeamId, platform, arch } = {}) {
  const command = findBinary({ binary, platform, arch });
  const provider = ProviderCredentials.fromSettings({ providerKey, providerKeyId, providerTeamId });
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "apns-mock-"));
  const state = path.join(directory, "state");
  fs.mkdirSync(state);
  fs.mkdirSync(path.join(directory, "provider"));
  provider.write(path.join(directory, "provider"));
  const providerSetup = path.join(directory, "provider", "provider-key.yaml");
  fs.writeFileSync(providerSetup, `${JSON.stringify(provider.setupDocument(), null, 2)}\n`); // JSON is YAML
  const stdoutPath = path.join(directory, "stdout.log");
  const stderrPath = path.join(directory, "stderr.log");
  const stdout = fs.openSync(stdoutPath, "w");
  const stderr = fs.openSync(stderrPath, "w");
  const argv = ["serve", "--port", "0", "--admin-port", "0", "--expectations", providerSetup, ...args,
    ...(adminToken ? ["--admin-token", adminToken] : [])];
  const child = spawn(command, argv, {
    cwd: directory,
    // The server runs in its own directory; relative paths in args mean the caller's.
    env: { ...process.env, XDG_STATE_HOME: state, APNS_MOCK_BASE_DIRECTORY: process.cwd(), ...env },
    stdio: ["ignore", stdout, stderr],
  });
  fs.closeSync(stdout);
  fs.closeSync(stderr);
  let spawnError;
  child.once("error", (error) => (spawnError = error));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && !spawnError) {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), stopTimeoutMs);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(directory, { recursive: true, force: true });
    return child.exitCode ?? child.signalCode;
  };
  const fail = async (message) => {
    const text = fs.existsSync(stderrPath) ? fs.readFileSync(stderrPath, "utf8") : "";
    await stop();
    const error = new Error(text.trim() ? `${message}\n--- apns-mock stderr ---\n${text.trimEnd()}` : message);
    error.stderr = text;
    throw error;
  };

  const deadline = Date.now() + startTimeoutMs;
  let match;
  for (;;) {
    match = READY_LINE.exec(fs.readFileSync(stdoutPath, "utf8"));
    if (match) break;
    if (spawnError) {
      await fail(spawnError.code === "ENOENT"
        ? `apns-mock not found ('${command}'): pass {binary}, set APNS_MOCK_BIN, or put apns-mock on PATH`
        : `apns-mock did not start: ${spawnError.message}`);
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      await fail(`apns-mock exited with status ${child.exitCode ?? child.signalCode} before it was ready (${command} ${argv.join(" ")})`);
    }
    if (Date.now() > deadline) await fail(`apns-mock printed no ready line within ${startTimeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const [, apnsUrl, adminUrl, channelsUrl = "", webPushUrl = ""] = match;
  const client = new AdminClient(adminUrl, { token: adminToken });
  let caPath = "";
  try {
    caPath = path.join(directory, "ca.pem");
    fs.writeFileSync(caPath, await client.caPem());
  } catch (error) {
    caPath = "";
    if (!(error instanceof AdminError)) await fail(`fetching the CA: ${error.message}`);
  }
  return {
    apnsUrl, adminUrl, channelsUrl, webPushUrl, caPath, client, provider, process: child, directory, stop,
    // The server goes with stop(), and its subscriptions with it.
    webPushSubscription: (options) => client.webPushSubscription(options),
  };
}

/**
 * A server started elsewhere, known by its admin URL: addresses from `GET /v1/info` (a wildcard
 * bind address replaced by the admin URL's host), the CA from `GET /v1/ca.pem` in a temporary
 * file. Resolves to the same shape as startMock. `provider` is chosen as startMock chooses it and
 * registered with `PUT /v1/keys/{keyId}`, again after each `client.reset()`. `stop()` removes the
 * temporary files and a generated key from the server; it does not stop the server.
 */
export async function connectMock(adminUrl, { token, providerKey, providerKeyId, providerTeamId } = {}) {
  const client = new AdminClient(adminUrl, { token });
  const info = await client.info();
  const host = new URL(client.adminUrl).hostname;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "apns-mock-remote-"));
  let caPath = "";
  if (info.caUrl) {
    caPath = path.join(directory, "ca.pem");
    fs.writeFileSync(caPath, await client.caPem());
  }
  const provider = ProviderCredentials.fromSettings({ providerKey, providerKeyId, providerTeamId });
  provider.write(directory);
  await provider.register(client);
  client.afterReset((resetClient) => provider.register(resetClient));
  const subscriptions = [];
  return {
    apnsUrl: replaceWildcard(info.apnsUrl, host),
    adminUrl: client.adminUrl,
    channelsUrl: replaceWildcard(info.channelsUrl, host),
    webPushUrl: replaceWildcard(info.webPushUrl, host),
    caPath,
    client,
    provider,
    info,
    webPushSubscription: async (options) => {
      const subscription = await client.webPushSubscription(options);
      subscriptions.push(subscription);
      return subscription;
    },
    stop: async () => {
      if (provider.generated) await client.deleteKey(provider.keyId).catch(() => {});
      // The server stays: subscriptions made through this connection must not outlive it.
      await Promise.all(subscriptions.map((subscription) => unsubscribeQuietly(subscription).catch(() => {})));
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
