// apns-mock from Node: an admin API client (every operation of the admin API's document, generated in
// generated.mjs, and shorter names that call them) and startMock(),
// which runs the apns-mock binary on free ports. Node built-ins only (fetch, child_process, fs).
import { spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GeneratedAdminClient } from "./generated.mjs";

export { GeneratedAdminClient, OPERATIONS } from "./generated.mjs";

const READY_LINE = /^apns-mock ready apns=(\S+) admin=(\S+)(?: channels=(\S+))?/m;

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
  reset({ closeConnections = false } = {}) {
    return super.reset(closeConnections ? { closeConnections: true } : {});
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
  async devices() { return (await this.listDevices()).devices; }
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
}

// Operations that may take longer than the client's timeout: verify waits up to each
// expectation's `within` (at most 300 s).
const OPERATION_TIMEOUTS_MS = { verify: 330_000 };

function replaceWildcard(url, host) {
  if (!url) return url;
  const parsed = new URL(url);
  if (["0.0.0.0", "[::]", "::"].includes(parsed.hostname)) parsed.hostname = host;
  return parsed.toString().replace(/\/$/, "");
}

/**
 * Starts `apns-mock serve --port 0 --admin-port 0 ...args` in a new temporary directory with its
 * own XDG_STATE_HOME, waits for the ready line, and fetches the CA (`GET /v1/ca.pem`) into
 * `caPath`. `binary`: the given path, else $APNS_MOCK_BIN, else `apns-mock` on PATH. Rejects with
 * the process's stderr when it exits or prints no ready line within `startTimeoutMs`.
 */
export async function startMock({ binary, args = [], adminToken, env = {}, startTimeoutMs = 30_000, stopTimeoutMs = 10_000 } = {}) {
  const command = binary ?? process.env.APNS_MOCK_BIN ?? "apns-mock";
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "apns-mock-"));
  const state = path.join(directory, "state");
  fs.mkdirSync(state);
  const stdoutPath = path.join(directory, "stdout.log");
  const stderrPath = path.join(directory, "stderr.log");
  const stdout = fs.openSync(stdoutPath, "w");
  const stderr = fs.openSync(stderrPath, "w");
  const argv = ["serve", "--port", "0", "--admin-port", "0", ...args, ...(adminToken ? ["--admin-token", adminToken] : [])];
  const child = spawn(command, argv, {
    cwd: directory,
    env: { ...process.env, XDG_STATE_HOME: state, ...env },
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
  const [, apnsUrl, adminUrl, channelsUrl = ""] = match;
  const client = new AdminClient(adminUrl, { token: adminToken });
  let caPath = "";
  try {
    caPath = path.join(directory, "ca.pem");
    fs.writeFileSync(caPath, await client.caPem());
  } catch (error) {
    caPath = "";
    if (!(error instanceof AdminError)) await fail(`fetching the CA: ${error.message}`);
  }
  return { apnsUrl, adminUrl, channelsUrl, caPath, client, process: child, directory, stop };
}

/**
 * A server started elsewhere, known by its admin URL: addresses from `GET /v1/info` (a wildcard
 * bind address replaced by the admin URL's host), the CA from `GET /v1/ca.pem` in a temporary
 * file. Resolves to the same shape as startMock; `stop()` only removes that file.
 */
export async function connectMock(adminUrl, { token } = {}) {
  const client = new AdminClient(adminUrl, { token });
  const info = await client.info();
  const host = new URL(client.adminUrl).hostname;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "apns-mock-remote-"));
  let caPath = "";
  if (info.caUrl) {
    caPath = path.join(directory, "ca.pem");
    fs.writeFileSync(caPath, await client.caPem());
  }
  return {
    apnsUrl: replaceWildcard(info.apnsUrl, host),
    adminUrl: client.adminUrl,
    channelsUrl: replaceWildcard(info.channelsUrl, host),
    caPath,
    client,
    info,
    stop: async () => fs.rmSync(directory, { recursive: true, force: true }),
  };
}
