// Types of apns-mock's Node module (index.mjs). The admin API's schemas and the generated
// operations' signatures are in generated.d.ts (generated from the OpenAPI document, GET
// /v1/openapi.yaml) and re-exported here; the hand-written names keep their looser types
// (`ApiObject`). Where both name a type (`Delivery`, `Duration`), this file's is exported.
import type { GeneratedAdminClient, WebPushDeviceBody, WebPushSubscription as WebPushSubscriptionJSON, WebPushSubscriptionDevice, WebPushSubscriptionKeys } from "./generated.js";

export * from "./generated.js";

export type ApiObject = Record<string, any>;
/** A record of GET /v1/deliveries (`sequence`, `kind`, `token`, `apnsId`, `response`, `outcome`, …); a web push's `token` is its subscription's id. */
export type Delivery = ApiObject & { summary: string; sequence: number; kind: "push" | "broadcast" | "channel" | "webPush"; token: string | null; apnsId: string };
/** `suggestion`: for a path no recent record has (a misspelled key), the closest one they have. */
export interface Difference { field: string; expected: string; actual: string | null; suggestion?: string }
export interface NearMiss { sequence: number; satisfied: number; of: number; differences: Difference[]; record: Delivery }
export type Scalar = string | number | boolean;
/**
 * Matcher fields as in a query string: `token`, `tokenPrefix`, `topic`, `pushType`, `status`,
 * `reason`, `apnsId`, `collapseId`, `priority`, `environment`, `authMethod`, `connectionId`,
 * `faultId`, `channelId`, `subscriptionId`, `outcome`, `kind`, `delivery`, `deliveryReason`, `lint`, `"payload.<path>"`, `"headers.<name>"`,
 * `"preview.<field>"`; a nested object is flattened, an array repeats the parameter.
 */
export type Match = Record<string, Scalar | Scalar[] | ApiObject | null | undefined>;
export type Duration = number | string;

export class AdminError extends Error {
  status: number;
  /** The API's stable code: `badParameter`, `notFound`, `faultRuleExists`, … */
  code: string;
  /** The API's sentence (`message` also holds the method, path and status). */
  apiMessage: string;
  method: string;
  path: string;
}

export class WaitTimeout extends Error {
  count: number;
  timeout: Duration;
  query: string;
  records: Delivery[];
  nearMisses: NearMiss[];
  dashboard: string;
  /** The server's words for the timeout (the 408's `explanation`); also the error's `message`. */
  explanation: string;
}

/** A `batch` event of GET /v1/events: records summarised because the reader fell behind. */
export class EventBatch {
  /** The first and last sequence numbers covered. */
  from: number;
  to: number;
  /** Matching records among them still stored, by status (`"200"`, …) and by outcome. */
  count: number;
  byStatus: Record<string, number>;
  byOutcome: Record<string, number>;
  /** Records that left the store before they could be counted. */
  agedOut: number;
  reason: string;
}

export function queryString(match?: Match): string;
export function dashboardLink(adminUrl: string, query?: string, record?: number): string;
export function recordLine(record: Delivery): string;

/**
 * The generated operations (generated.d.ts), less those AdminClient declares again below with the
 * signatures its thin aliases keep.
 */
declare const AdminClientBase: new () => Omit<GeneratedAdminClient, "health" | "info" | "metrics" | "reset" | "deleteDeliveries" | "verify" | "putKey" | "deleteKey" | "deleteDevice" | "unregisterDevice" | "expireDevice" | "deviceNotifications" | "createChannel" | "deleteChannel" | "setBroadcastCapability" | "addFault" | "putFault" | "deleteFault" | "deleteFaults" | "enableBehavior" | "disableBehavior" | "moveClock" | "resetClock">;

/**
 * The admin API of one apns-mock server: every operation of the document under its operationId
 * (from GeneratedAdminClient), and the shorter names that call them.
 */
export class AdminClient extends AdminClientBase {
  constructor(adminUrl: string, options?: { token?: string; timeoutMs?: number });
  readonly adminUrl: string;
  dashboardLink(match?: Match): string;

  health(): Promise<ApiObject>;
  info(): Promise<{ version: string; environment: string; apnsUrl: string; apnsPorts: number[]; channelsUrl: string; channelsPort: number; webPushUrl: string; webPushPort: number; adminUrl: string; adminPort: number; caUrl: string | null }>;
  caPem(): Promise<string>;
  openapi(): Promise<string>;
  metrics(): Promise<string>;
  /** `POST /v1/reset`, then each `afterReset` callback. */
  reset(options?: { closeConnections?: boolean }): Promise<{ reset: true; closedConnections: number }>;
  /** Calls `callback(client)` after each `reset()` through this client (connectMock registers its provider key again so). */
  afterReset(callback: (client: AdminClient) => unknown): void;

  deliveries(match?: Match & { since?: number; before?: number; limit?: number; order?: "asc" | "desc" }): Promise<Delivery[]>;
  delivery(apnsId: string): Promise<Delivery>;
  preview(apnsId: string): Promise<ApiObject>;
  simulatorFile(apnsId: string): Promise<ApiObject>;
  /** `GET /v1/delivery-log/{uniqueId}`: a sandbox push's or broadcast's delivery log by its `apns-unique-id`. */
  deliveryLog(uniqueId: string): Promise<ApiObject>;
  deleteDeliveries(match?: Match): Promise<number>;
  wait(options?: Match & { count?: number; timeout?: Duration; since?: number; before?: number }): Promise<Delivery[]>;
  events(options?: Match & { since?: number; lastEventId?: number; behind?: "batch" | "end"; signal?: AbortSignal }): AsyncGenerator<Delivery | EventBatch, void, undefined>;
  verify(expectations: { expect: ApiObject[] } | ApiObject[]): Promise<{ passed: boolean; results: ApiObject[] }>;

  keys(): Promise<ApiObject[]>;
  key(keyId: string): Promise<ApiObject>;
  putKey(keyId: string, body: { teamId: string; publicKey?: string; privateKey?: string; environment?: "sandbox" | "production" | "both"; topics?: string[]; relatedKeyId?: string }): Promise<ApiObject>;
  deleteKey(keyId: string): Promise<void>;

  /** Every registered device, ascending by token (the pages of `GET /v1/devices` followed; `listDevices({after, limit})` reads one page). */
  devices(options?: { pageSize?: number }): Promise<ApiObject[]>;
  device(token: string): Promise<ApiObject>;
  registerDevice(token: string, body?: { topic?: string; environment?: "sandbox" | "production"; locale?: string; state?: "active" | "unregistered" | "expired"; unregisteredAt?: number; expiredAt?: number; presence?: "online" | "offline" | "lowPower"; until?: number; for?: Duration; periods?: { presence: "online" | "offline" | "lowPower"; from?: number; until?: number; for?: Duration }[]; notifications?: "enabled" | "disabled"; installed?: boolean; uninstalledAt?: number; uninstallGrace?: Duration; backgroundPushesPerHour?: number }): Promise<ApiObject>;
  deleteDevice(token: string): Promise<void>;
  unregisterDevice(token: string, body?: { unregisteredAt?: number }): Promise<ApiObject>;
  expireDevice(token: string, body?: { expiredAt?: number }): Promise<ApiObject>;
  /** `GET /v1/devices/{token}/notifications`: what the device's user sees now (`notifications`, newest first, one per collapse id; `badges`; `liveActivities`) and what APNs holds for it (`stored`). */
  deviceNotifications(token: string, options?: { limit?: number }): Promise<ApiObject>;

  channels(query?: { bundleId?: string; environment?: "sandbox" | "production"; token?: string }): Promise<ApiObject[]>;
  createChannel(body: { bundleId: string; environment: "sandbox" | "production"; messageStoragePolicy?: 0 | 1; pushType?: string; channelId?: string }): Promise<ApiObject>;
  channel(channelId: string): Promise<ApiObject>;
  deleteChannel(channelId: string): Promise<void>;
  subscribe(channelId: string, token: string): Promise<ApiObject>;
  /** `POST /v1/channels/{channelId}/devices`: `{channelId, added, subscribers}`. */
  subscribeMany(channelId: string, tokens: string[]): Promise<ApiObject>;
  unsubscribe(channelId: string, token: string): Promise<void>;
  broadcastCapability(bundleId: string): Promise<{ bundleId: string; enabled: boolean }>;
  setBroadcastCapability(bundleId: string, enabled: boolean): Promise<{ bundleId: string; enabled: boolean; deletedChannels: number }>;

  faults(): Promise<ApiObject[]>;
  fault(id: string): Promise<ApiObject>;
  addFault(rule: { id?: string; match?: ApiObject; select?: ApiObject; action: ApiObject }): Promise<ApiObject>;
  putFault(id: string, rule: { match?: ApiObject; select?: ApiObject; action: ApiObject }): Promise<ApiObject>;
  deleteFault(id: string): Promise<void>;
  deleteFaults(): Promise<number>;

  behaviors(): Promise<ApiObject[]>;
  enableBehavior(name: string, options?: { lockout?: Duration }): Promise<ApiObject[]>;
  disableBehavior(name: string): Promise<void>;
  modes(): Promise<ApiObject>;
  setMode(mode: "shutdown" | "unavailable" | "refuse-tls", query?: { for?: Duration; count?: number }): Promise<ApiObject>;
  clearMode(mode: "shutdown" | "unavailable" | "refuse-tls"): Promise<ApiObject>;

  clock(): Promise<ApiObject>;
  moveClock(change: { advance: Duration } | { set: number }): Promise<ApiObject>;
  resetClock(): Promise<ApiObject>;

  connections(query?: { state?: "open" | "all" }): Promise<ApiObject[]>;
  report(query?: { since?: number; until?: number; window?: Duration }): Promise<ApiObject>;

  /**
   * A Web Push subscription made as a browser makes one (`POST /v1/webpush/subscriptions`); without
   * `applicationServerKey`, for a P-256 VAPID key pair generated here. With `test`, unsubscribed
   * when that test ends.
   */
  webPushSubscription(options?: WebPushSubscriptionOptions): Promise<WebPushSubscription>;
}

/** What a VAPID `sub` claim says when none is given: `mailto:test@example.com`. */
export const DEFAULT_VAPID_SUBJECT: "mailto:test@example.com";

/** An `applicationServerKey`: base64url text (the 65-byte uncompressed P-256 point), those bytes, or an EC P-256 KeyObject (public or private). */
export type ApplicationServerKey = string | Uint8Array | import("node:crypto").KeyObject;

/** The base64url `applicationServerKey` of a key given as text, 65 bytes or a KeyObject. */
export function applicationServerKeyText(key: ApplicationServerKey): string;

export interface WebPushSubscriptionOptions {
  /** The application server's VAPID key; left out, a P-256 key pair is generated (`vapidPrivateKey`, `vapidKeys`). A private KeyObject is kept as `vapidPrivateKey`. */
  applicationServerKey?: ApplicationServerKey;
  /** The site that subscribed (`https://example.com`). */
  origin?: string;
  /** When the subscription stops taking pushes, epoch milliseconds (410 after it). */
  expirationTime?: number;
  /** Its browser's conditions from the start (the create body's `device`): `{presence: "offline"}`, `{presence: "lowPower", for: "10m"}`, `periods`, `notifications`. */
  device?: WebPushDeviceBody;
  /** Replaces the endpoint's origin (path kept): the Web Push URL as the caller reaches it, such as a container's published port. The VAPID `audience` follows. */
  endpointBase?: string;
  /** A node:test TestContext (anything with `after(fn)`): the subscription is unsubscribed when that test ends. */
  test?: { after(fn: () => unknown): void };
}

/**
 * A Web Push subscription the mock made, as a browser makes one for a page that calls
 * `pushManager.subscribe({applicationServerKey})`, with the VAPID key it was made for when that was
 * generated or given whole. `JSON.stringify(subscription)` is the W3C PushSubscription JSON.
 */
export class WebPushSubscription {
  constructor(answer: WebPushSubscriptionJSON, options?: { client?: AdminClient; vapidPrivateKey?: import("node:crypto").KeyObject | null; endpointBase?: string });
  /** Names it in the admin API and in its pushes' records (`subscriptionId`; their `token`). */
  id: string;
  /** The URL the application server POSTs pushes to (on `endpointBase` when one was given). */
  endpoint: string;
  expirationTime: number | null;
  keys: WebPushSubscriptionKeys;
  origin: string | null;
  /** The VAPID public key (base64url): the `k=` of the push's `Authorization: vapid t=…, k=…`. */
  applicationServerKey: string;
  /** The VAPID private key, or null when only the public key was given. */
  vapidPrivateKey: import("node:crypto").KeyObject | null;
  /** The admin API's answer as it came (`createdAt`, `state`, `device`), replaced by setDevice's. */
  json: WebPushSubscriptionJSON;
  /** Its browser's conditions as the server last answered (a copy of `json.device`). */
  readonly device: WebPushSubscriptionDevice;
  /**
   * `PUT /v1/webpush/subscriptions/{id}/device`: sets its browser's conditions (setting `online`
   * delivers what was held while offline); the subscription as the API then gives it (also `json`).
   * An unknown field rejects with AdminError 400 naming it.
   */
  setDevice(conditions: WebPushDeviceBody): Promise<WebPushSubscriptionJSON>;
  /** The W3C PushSubscription JSON: `{endpoint, expirationTime, keys}`. */
  toJSON(): { endpoint: string; expirationTime: number | null; keys: WebPushSubscriptionKeys };
  /** The endpoint's origin: the VAPID JWT's `aud`. */
  readonly audience: string;
  /** The key pair as base64url (`{publicKey, privateKey}`, as web-push's `generateVAPIDKeys()`), or null without the private key. */
  readonly vapidKeys: { publicKey: string; privateKey: string } | null;
  /** `{sub: subject, aud: audience}`; `subject` defaults to DEFAULT_VAPID_SUBJECT. */
  vapidClaims(subject?: string): { sub: string; aud: string };
  /** `DELETE /v1/webpush/subscriptions/{id}`: a push to it is then answered 410. */
  unsubscribe(): Promise<WebPushSubscriptionJSON>;
}

export const DEFAULT_TEAM_ID: "MOCKTEAM00";
/** How long `token()` returns the same string: 50 minutes (Apple: at most one new token per 20 minutes, none older than an hour). */
export const TOKEN_REUSE_SECONDS: number;

/**
 * Provider credentials the mock knows: a P-256 signing key (`keyPath`, a .p8 file), its `keyId`,
 * the `teamId`, and `token()`, the ES256 provider token they make. A token not signed with the key
 * is refused with 403 InvalidProviderToken.
 */
export class ProviderCredentials {
  constructor(fields: { privateKey: import("node:crypto").KeyObject; keyId: string; teamId?: string; keyPath?: string; generated?: boolean; clock?: () => number });
  /** A new P-256 key; `keyId` defaults to 10 random letters and digits, `teamId` to MOCKTEAM00. */
  static generate(options?: { keyId?: string; teamId?: string }): ProviderCredentials;
  /** The key of a .p8 file; `keyId` defaults to the one in Apple's file name, AuthKey_<key id>.p8. */
  static fromFile(keyPath: string, options?: { keyId?: string; teamId?: string }): ProviderCredentials;
  /** `providerKey` (else $APNS_MOCK_PROVIDER_KEY), `providerKeyId`, `providerTeamId` (else their variables); without a file, a generated key. */
  static fromSettings(options?: ProviderOptions, env?: Record<string, string | undefined>): ProviderCredentials;
  privateKey: import("node:crypto").KeyObject;
  /** Letters and digits; Apple's are 10 characters. */
  keyId: string;
  teamId: string;
  /** The .p8 file (PKCS#8 PEM); "" for a generated key not yet written. */
  keyPath: string;
  /** True for a generated key, false for a file's. */
  generated: boolean;
  /** Milliseconds since the epoch, as Date.now(): what `iat` is read from. */
  clock: () => number;
  /** Writes a generated key to `directory/AuthKey_<key id>.p8` (0600) unless its file is there; returns keyPath. */
  write(directory: string): string;
  /** The public half, PEM `PUBLIC KEY`. */
  readonly publicKeyPem: string;
  /** The body of `PUT /v1/keys/{keyId}`. */
  keyBody(): { teamId: string; environment: "both"; publicKey: string };
  /** An expectation file's `setup:` registering the key. */
  setupDocument(): { setup: { keys: ApiObject[] } };
  register(client: AdminClient): Promise<ApiObject>;
  /** The ES256 JWT `{alg: "ES256", kid}.{iss, iat}` with a raw R||S signature; the same string for 50 minutes. */
  token(): string;
  /** A JWT with this key's header and these claims, signed now (not cached). */
  sign(claims: Record<string, unknown>): string;
}

export interface ProviderOptions {
  /** A .p8 file to use instead of a generated key (default $APNS_MOCK_PROVIDER_KEY). */
  providerKey?: string;
  /** Its key id (default $APNS_MOCK_PROVIDER_KEY_ID, else the id in AuthKey_<id>.p8, else random for a generated key). */
  providerKeyId?: string;
  /** The team id (default $APNS_MOCK_PROVIDER_TEAM_ID, else MOCKTEAM00). */
  providerTeamId?: string;
}

/**
 * The apns-mock binary startMock runs: `binary`, else $APNS_MOCK_BIN, else the one this package
 * carries for `${platform}-${arch}` (bin/<platform>-<arch>/apns-mock), else apns-mock on PATH.
 * Throws naming the platform and what the package carries when there is none.
 */
export function findBinary(options?: { binary?: string; env?: Record<string, string | undefined>; platform?: string; arch?: string; packageDirectory?: string }): string;
/** The platforms whose binary the package carries, e.g. `["linux-x64"]` (none in a source checkout). */
export function packagedPlatforms(packageDirectory?: string): string[];

export interface RunningMock {
  apnsUrl: string;
  adminUrl: string;
  channelsUrl: string;
  /** The Web Push listener (`webpush=` of the ready line, `webPushUrl` of GET /v1/info): subscriptions' endpoints start with it. */
  webPushUrl: string;
  /** The CA (from GET /v1/ca.pem) in a file; "" when the server has none to give. */
  caPath: string;
  client: AdminClient;
  /** Provider credentials the server knows (`keyPath`, `keyId`, `teamId`, `token()`). */
  provider: ProviderCredentials;
  /**
   * `client.webPushSubscription(options)`: with `test`, unsubscribed when that test ends; else with
   * the server (startMock), or at `stop()` (connectMock).
   */
  webPushSubscription(options?: WebPushSubscriptionOptions): Promise<WebPushSubscription>;
  /** SIGTERM, wait for the exit (SIGKILL after stopTimeoutMs), remove the temporary directory. */
  stop(): Promise<number | string | null | void>;
}

export function startMock(options?: ProviderOptions & {
  binary?: string;
  args?: string[];
  adminToken?: string;
  env?: Record<string, string>;
  startTimeoutMs?: number;
  stopTimeoutMs?: number;
  /** Stand in for process.platform and process.arch when choosing the packaged binary (for tests). */
  platform?: string;
  arch?: string;
}): Promise<RunningMock & { process: import("node:child_process").ChildProcess; directory: string }>;

export function connectMock(adminUrl: string, options?: ProviderOptions & { token?: string }): Promise<RunningMock & { info: ApiObject }>;
