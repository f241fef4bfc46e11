// apns-mock dashboard: hand-written, no framework, no build step. Everything it shows comes from
// the admin API (the same calls a script makes); untrusted text (payloads, headers) is only ever
// set as textContent, never parsed as HTML.
//
// The admin token (servers started with --admin-token) is typed into the page, kept in this tab's
// sessionStorage and sent as `authorization: Bearer` on every fetch. The delivery stream is read
// with fetch streaming rather than EventSource, which cannot send that header.
//
// The filter and the record open in the detail pane live in the address's fragment
// (`#filter=status%3D400&record=12`, each value URL-encoded), so that a link (one `apns-mock
// verify` prints, one pasted into a bug report) opens the page on them; the filter is also kept
// in the tab's sessionStorage, for an address without a fragment.
"use strict";

(() => {
  const TOKEN_KEY = "apns-mock.adminToken";
  const FILTER_KEY = "apns-mock.filter";
  const FIRST_PAGE = 200;  // records shown on load
  const MOST_CARDS = 500;  // older cards are dropped beyond this
  const RETRY_MS = 1000;

  const $ = (id) => document.getElementById(id);
  const state = {
    records: new Map(),  // sequence -> record
    cards: new Map(),    // sequence -> <li>
    selected: null,      // sequence shown in the detail pane (or asked for by the address, until shown)
    shown: null,         // the record in the detail pane (it may be outside the list: an address named it)
    loaded: false,       // whether the first page for the filter has been answered
    fanOut: new Map(),   // broadcast sequence -> devices it reached, read from the API while a filter hides them
    lastSequence: 0,     // the newest sequence the stream has sent (where a reconnect resumes)
    summarised: 0,       // matching records the stream summarised in `batch` events (the page fell behind)
    agedOut: 0,          // records that left the store before the stream summarised them
    abort: null,         // AbortController of the running stream
    devices: new Map(),  // token -> locale, from GET /v1/devices
    tab: "deliveries",
    tokenAsked: false,
    device: "",          // the token the Device tab shows
    deviceShown: "",     // the view last drawn (JSON), so that an unchanged poll redraws nothing
    presenceChanges: 0,  // bumped by each presence a user sets: a view read before it is stale
  };

  // MARK: helpers

  /** An element with attributes and children (strings become text nodes). */
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === "class") node.className = value;
      else if (name === "text") node.textContent = value;
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function show(node, visible) { node.hidden = !visible; }

  function say(node, message) {
    node.textContent = message || "";
    show(node, Boolean(message));
  }

  function announce(message) {
    const announcer = $("announcer");
    announcer.textContent = "";
    // A fresh text node after a tick, so that screen readers announce a repeated message too.
    setTimeout(() => { announcer.textContent = message; }, 30);
  }

  function text(value) {
    if (value === undefined || value === null) return "—";
    if (typeof value === "object") return JSON.stringify(value);
    return String(value);
  }

  function time(milliseconds, withDate) {
    if (milliseconds === undefined || milliseconds === null) return "—";
    const date = new Date(milliseconds);
    const clock = date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
    return withDate ? `${date.toLocaleDateString()} ${clock}.${String(date.getMilliseconds()).padStart(3, "0")}` : clock;
  }

  function definitionList(pairs, className) {
    const list = el("dl", { class: className || "kv" });
    for (const [key, value] of pairs) {
      if (value === undefined) continue;
      list.append(el("dt", { text: key }), el("dd", { text: text(value) }));
    }
    return list;
  }

  function pretty(value) {
    return el("pre", { text: typeof value === "string" ? value : JSON.stringify(value, null, 2) });
  }

  /** A device token as a card shows it: the first 8 and the last 4 hex digits. */
  function shortToken(token) {
    return token && token.length > 14 ? `${token.slice(0, 8)}…${token.slice(-4)}` : token || "";
  }

  function sameID(one, other) { return (one || "").toLowerCase() === (other || "").toLowerCase(); }

  // MARK: the address's fragment

  /** `#filter=…&record=…&token=…` as name -> value; values are URL-encoded (`+` is a plus sign). */
  function readFragment() {
    const values = {};
    for (const part of location.hash.replace(/^#/, "").split("&")) {
      if (!part) continue;
      const equals = part.indexOf("=");
      const name = equals < 0 ? part : part.slice(0, equals);
      let value = equals < 0 ? "" : part.slice(equals + 1);
      try { value = decodeURIComponent(value); } catch (_) { /* kept as written */ }
      values[name] = value;
    }
    return values;
  }

  /** A record's sequence number from the address, or null. */
  function recordFromFragment(fragment) {
    return /^[1-9][0-9]{0,15}$/.test(fragment.record || "") ? Number(fragment.record) : null;
  }

  /** The fragment for a filter and a record (either may be empty). */
  function fragmentFor(filter, sequence) {
    const parts = [];
    if (filter) parts.push(`filter=${encodeURIComponent(filter)}`);
    if (sequence !== null && sequence !== undefined) parts.push(`record=${sequence}`);
    return parts.length ? `#${parts.join("&")}` : "";
  }

  /** Puts the filter and the open record into the address, replacing the entry (no history step). */
  function writeFragment() {
    const address = location.pathname + location.search + fragmentFor(filterQuery(), state.selected);
    if (address !== location.pathname + location.search + location.hash) history.replaceState(null, "", address);
  }

  // MARK: the admin API

  function token() { return sessionStorage.getItem(TOKEN_KEY) || ""; }

  function headers(extra) {
    const result = Object.assign({}, extra);
    if (token()) result.authorization = `Bearer ${token()}`;
    return result;
  }

  class APIError extends Error {
    constructor(status, body) {
      super(body && body.error ? body.error.message : `the admin API answered ${status}`);
      this.status = status;
      this.code = body && body.error ? body.error.code : undefined;
    }
  }

  /** One admin call; the decoded JSON answer, or an APIError carrying the API's message. */
  async function api(method, path, body) {
    const init = { method, cache: "no-store", headers: headers(body === undefined ? {} : { "content-type": "application/json" }) };
    if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
    const response = await fetch(path, init);
    const raw = await response.text();
    let json = null;
    try { json = raw ? JSON.parse(raw) : null; } catch (_) { json = null; }
    if (response.status === 401) tokenNeeded(json);
    if (!response.ok) throw new APIError(response.status, json);
    return json;
  }

  function tokenNeeded(body) {
    const form = $("token-form");
    form.classList.add("needed");
    const why = body && body.error ? body.error.message : "this server asks for its admin token";
    say($("problem"), `${why}. Type the admin token in the field above; the page keeps it for this tab only.`);
    setStreamState("locked", "Needs the admin token");
    if (!state.tokenAsked) {
      state.tokenAsked = true;
      $("token-input").focus();
    }
  }

  function setStreamState(name, label) {
    const node = $("stream-state");
    node.dataset.state = name;
    node.textContent = label;
  }

  /** The filter as a query string: the text field's value, without a leading `?` or spaces. */
  function filterQuery() {
    return $("filter-input").value.trim().replace(/^\?/, "").replace(/^&+|&+$/g, "");
  }

  function withFilter(path, extra) {
    const parts = [filterQuery(), extra].filter(Boolean);
    return parts.length ? `${path}?${parts.join("&")}` : path;
  }

  // MARK: the deliveries

  /** Loads the newest page for the filter, then follows the event stream from there. */
  async function startDeliveries() {
    if (state.abort) state.abort.abort();
    const controller = new AbortController();
    state.abort = controller;
    sessionStorage.setItem(FILTER_KEY, $("filter-input").value);
    writeFragment();
    say($("filter-error"), "");
    $("filter-input").removeAttribute("aria-invalid");
    state.loaded = false;
    state.fanOut.clear();
    clearCards();
    setStreamState("connecting", "Connecting…");
    let page;
    try {
      page = await api("GET", withFilter("/v1/deliveries", `order=desc&limit=${FIRST_PAGE}`));
    } catch (error) {
      if (controller.signal.aborted) return;
      return stopped(error);
    }
    if (controller.signal.aborted) return;
    say($("problem"), "");
    const records = page.deliveries || [];
    for (const record of records.slice().reverse()) upsert(record, false);
    state.lastSequence = records.reduce((most, record) => Math.max(most, record.sequence), 0);
    state.loaded = true;
    updateCount();
    showWantedRecord();
    follow(controller);
  }

  function stopped(error) {
    const status = error instanceof APIError ? error.status : null;
    if (!state.loaded) {
      $("delivery-count").textContent = status === 401 ? "Waiting for the admin token."
        : status === 400 ? "No deliveries shown: the filter is not valid."
          : "No deliveries shown: the admin API cannot be read.";
    }
    if (status === 400) {
      say($("filter-error"), error.message);
      $("filter-input").setAttribute("aria-invalid", "true");
      setStreamState("error", "Stopped: the filter is not valid");
    } else if (!(error instanceof APIError && error.status === 401)) {
      say($("problem"), `The admin API cannot be read: ${error.message}`);
      setStreamState("error", "Disconnected");
    }
  }

  /** Reads `GET /v1/events` until aborted, reconnecting after `lastSequence` when it ends. */
  async function follow(controller) {
    while (!controller.signal.aborted) {
      try {
        await readStream(controller);
        if (controller.signal.aborted) return;
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof APIError && (error.status === 400 || error.status === 401)) return stopped(error);
      }
      setStreamState("connecting", "Reconnecting…");
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }

  async function readStream(controller) {
    const response = await fetch(withFilter("/v1/events", `since=${state.lastSequence}`), {
      headers: headers({ accept: "text/event-stream" }),
      cache: "no-store",
      signal: controller.signal,
    });
    if (!response.ok) {
      let body = null;
      try { body = await response.json(); } catch (_) { body = null; }
      if (response.status === 401) tokenNeeded(body);
      throw new APIError(response.status, body);
    }
    setStreamState("live", "Live");
    say($("problem"), "");
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value.replace(/\r\n?/g, "\n");
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        serverEvent(block);
      }
    }
  }

  /**
   * One Server-Sent Event: `delivery` (new with an id, an answer decided since without), `batch`
   * (records summarised while the page was behind: counted, not shown) or `dropped`.
   */
  function serverEvent(block) {
    let name = "message";
    let id = null;
    const data = [];
    for (const line of block.split("\n")) {
      if (line === "" || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") name = value;
      else if (field === "id") id = value;
      else if (field === "data") data.push(value);
    }
    if (name === "delivery" && data.length) {
      const record = JSON.parse(data.join("\n"));
      if (id !== null) state.lastSequence = Math.max(state.lastSequence, Number(id));
      const isNew = !state.records.has(record.sequence);
      upsert(record, true);
      updateCount();
      if (isNew) announce(arrival(record));
      refreshSoon();
    } else if (name === "batch" && data.length) {
      const batch = JSON.parse(data.join("\n"));
      state.lastSequence = Math.max(state.lastSequence, Number(id !== null ? id : batch.to));
      state.summarised += batch.count || 0;
      state.agedOut += batch.agedOut || 0;
      updateCount();
    } else if (name === "dropped") {
      say($("problem"), "The page fell behind and missed records that aged out of the store; it resumes from the newest.");
    }
  }

  function arrival(record) {
    const preview = previewOf(record);
    if (failed(record)) return `Rejected: ${record.response.status} ${record.response.reason || ""} for ${record.topic || record.path}`;
    if (record.kind === "channel") return `${channelOperation(record)} for ${appName(record)}`;
    if (record.kind === "broadcast") return `Broadcast to channel ${record.channelId || "?"} of ${appName(record)}`;
    const via = record.viaChannel ? ` via channel ${record.channelId}` : "";
    return `New notification from ${appName(record)}${via}: ${preview.title || preview.body || record.pushType || "no text"}`;
  }

  /**
   * What a channel-management request did, in words: "Channel created", "Channels listed", …
   * (an answer that is not a success, or none yet, gets the request's name: "Create channel").
   */
  function channelOperation(record) {
    const method = (record.method || "").toUpperCase();
    const listing = /\/all-channels\/?$/.test(record.path || "");
    const [done, asked] = listing ? ["Channels listed", "List channels"]
      : method === "POST" ? ["Channel created", "Create channel"]
        : method === "DELETE" ? ["Channel deleted", "Delete channel"]
          : method === "GET" ? ["Channel read", "Read channel"]
            : [`Channel request ${method}`, `Channel request ${method}`];
    return record.response && !failed(record) ? done : asked;
  }

  /**
   * How many devices a broadcast reached: its `viaChannel` records (same apns-id, after it, before
   * the next broadcast with that id). They are in the list unless a filter hides them; then the
   * count read from the API (`fanOut`), or null until it comes.
   */
  function devicesReached(broadcast) {
    if (filterQuery()) {
      if (!state.fanOut.has(broadcast.sequence)) countDevicesReached(broadcast);
      return state.fanOut.get(broadcast.sequence);
    }
    let end = Infinity;
    for (const record of state.records.values()) {
      if (record.kind === "broadcast" && record.sequence > broadcast.sequence && sameID(record.apnsId, broadcast.apnsId)) {
        end = Math.min(end, record.sequence);
      }
    }
    let count = 0;
    for (const record of state.records.values()) {
      if (record.viaChannel && record.sequence > broadcast.sequence && record.sequence < end
        && sameID(record.apnsId, broadcast.apnsId)) count += 1;
    }
    return count;
  }

  /** Reads a broadcast's device count from the API (`total` of its apns-id's pushes after it), then redraws its card. */
  function countDevicesReached(broadcast) {
    state.fanOut.set(broadcast.sequence, null);
    const query = `apnsId=${encodeURIComponent(broadcast.apnsId)}&kind=push&since=${broadcast.sequence}&limit=1`;
    api("GET", `/v1/deliveries?${query}`).then((page) => {
      if (!state.fanOut.has(broadcast.sequence)) return;  // the filter changed meanwhile
      state.fanOut.set(broadcast.sequence, page.total);
      const current = state.records.get(broadcast.sequence);
      if (current) upsert(current, false);
    }).catch(() => {});
  }

  /** The address of the list filtered to a broadcast and the deliveries it made (they share its apns-id). */
  function broadcastFilterLink(apnsId) { return fragmentFor(`apnsId=${apnsId}`, null); }

  /**
   * What the banner says: the record's preview, or for a rejected push (which has none: it was not
   * delivered) the same fields read plainly from its payload, so the card still shows what was sent.
   */
  function previewOf(record) {
    if (record.kind === "webPush") return webPushPreview(record);
    if (record.preview) return record.preview;
    const aps = record.payload && typeof record.payload === "object" && record.payload.aps;
    if (!aps || typeof aps !== "object") return {};
    const alert = aps.alert;
    const preview = typeof alert === "string" ? { body: alert } : {};
    if (alert && typeof alert === "object") {
      for (const key of ["title", "subtitle", "body"]) if (typeof alert[key] === "string") preview[key] = alert[key];
    }
    if (Number.isInteger(aps.badge)) preview.badge = aps.badge;
    if (typeof aps.sound === "string") preview.sound = { name: aps.sound, critical: false };
    else if (aps.sound && typeof aps.sound === "object") {
      preview.sound = { name: aps.sound.name, critical: aps.sound.critical === 1, volume: aps.sound.volume };
    }
    if (typeof aps["interruption-level"] === "string") preview.interruptionLevel = aps["interruption-level"];
    return preview;
  }

  /**
   * A web push as Safari shows it: its title and body, read from the body the mock decrypted. A
   * Declarative Web Push message (`web_push: 8030`) names them under `notification`, with the
   * page it opens (`navigate`) and the app badge; any other JSON is read as `{title, body}`, the
   * usual shape a service worker shows; text is the body. Nothing when the body did not decrypt.
   */
  function webPushPreview(record) {
    const facts = record.webPush || {};
    if (facts.decrypted === false) return {};
    const payload = record.payload;
    if (typeof payload === "string") return payload ? { body: payload } : {};
    if (!payload || typeof payload !== "object") return {};
    const declarative = payload.web_push === 8030 && payload.notification && typeof payload.notification === "object";
    const source = declarative ? payload.notification : payload;
    const preview = { declarative };
    for (const key of ["title", "body", "navigate"]) if (typeof source[key] === "string") preview[key] = source[key];
    const badge = declarative ? payload.app_badge : source.badge;
    if (Number.isInteger(badge)) preview.badge = badge;
    return preview;
  }

  /** The site a web push came from, as Safari names it: the subscription's origin without its scheme. */
  function webPushSite(record) {
    const origin = (record.webPush || {}).origin;
    return origin ? origin.replace(/^https?:\/\//, "") : "Web Push";
  }

  function failed(record) {
    const response = record.response;
    return Boolean(response && (response.goAway || (response.status !== null && (response.status < 200 || response.status > 299))));
  }

  function appName(record) {
    if (record.kind === "webPush") return webPushSite(record);
    return (record.topic || "").replace(/\.push-type\.[a-z]+$/, "") || (record.kind === "push" ? "(no topic)" : record.kind);
  }

  /** Adds a record's card, or replaces it in place when the record was sent before (pending, then answered). */
  function upsert(record, live) {
    const sequence = record.sequence;
    state.records.set(sequence, record);
    const card = renderCard(record);
    const old = state.cards.get(sequence);
    if (old) {
      const hadFocus = old.contains(document.activeElement);
      old.replaceWith(card);
      if (hadFocus) card.querySelector(".card").focus();
    } else {
      const list = $("cards");
      let before = null;
      for (const item of list.children) {
        if (Number(item.dataset.sequence) < sequence) { before = item; break; }
      }
      list.insertBefore(card, before);
      if (live) card.classList.add("arrived");
    }
    state.cards.set(sequence, card);
    if (state.selected === sequence && state.shown) {
      state.shown = record;
      renderDetail(record);
    }
    if (record.viaChannel && !old) {
      // A broadcast's card counts the devices it reached: one more now.
      for (const other of state.records.values()) {
        if (other.kind === "broadcast" && other.sequence < sequence && sameID(other.apnsId, record.apnsId)) upsert(other, false);
      }
    }
    while (state.cards.size > MOST_CARDS) {
      const oldest = Math.min(...state.cards.keys());
      state.cards.get(oldest).remove();
      state.cards.delete(oldest);
      state.records.delete(oldest);
    }
  }

  function clearCards() {
    $("cards").replaceChildren();
    state.cards.clear();
    state.records.clear();
    state.lastSequence = 0;
    state.summarised = 0;
    state.agedOut = 0;
    updateCount();
  }

  function updateCount() {
    updateBehindNote();
    const count = state.cards.size;
    // Nothing is known before the first answer: "No deliveries" then would be a guess.
    if (!state.loaded) {
      $("delivery-count").textContent = "Loading…";
      return;
    }
    $("delivery-count").textContent = count === 0
      ? (filterQuery() ? "No deliveries match the filter yet." : "No deliveries yet: push to the mock and they appear here.")
      : `${count} ${count === 1 ? "delivery" : "deliveries"}${filterQuery() ? " matching the filter" : ""}, newest first.`;
  }

  /** What the stream summarised in `batch` events while the page was behind, in words (hidden when nothing). */
  function updateBehindNote() {
    const note = $("behind-note");
    const parts = [];
    if (state.summarised) parts.push(`${state.summarised.toLocaleString("en-US")} ${state.summarised === 1 ? "record" : "records"} summarised while the dashboard was behind`);
    if (state.agedOut) parts.push(`${state.agedOut.toLocaleString("en-US")} left the store before it could read them`);
    note.textContent = parts.length ? `${parts.join("; ")} (not shown as cards: the filter above with GET /v1/deliveries reads those still stored).` : "";
    note.hidden = !parts.length;
  }

  function chip(label, className) { return el("span", { class: `chip ${className || ""}`.trim(), text: label }); }

  /** A record as an iOS notification banner. */
  function renderCard(record) {
    const item = $("card-template").content.firstElementChild.cloneNode(true);
    const card = item.querySelector(".card");
    const preview = previewOf(record);
    const aps = record.payload && typeof record.payload === "object" ? record.payload.aps || {} : {};
    item.dataset.sequence = record.sequence;
    card.dataset.sequence = record.sequence;
    card.dataset.apnsId = record.apnsId || "";
    card.title = record.summary || "";  // the record in one line, in the server's words
    card.dataset.status = record.response && record.response.status !== null ? record.response.status : "pending";
    const app = appName(record);
    item.querySelector(".app-letter").textContent = (app.split(".").pop() || "?").charAt(0).toUpperCase();
    item.querySelector(".app-name").textContent = app;
    const when = item.querySelector(".card-time");
    when.textContent = time(record.receivedAt);
    when.dateTime = new Date(record.receivedAt).toISOString();
    if (Number.isInteger(preview.badge) && preview.badge > 0) {
      const badge = item.querySelector(".badge");
      badge.textContent = String(preview.badge);
      show(badge, true);
    }
    card.dataset.kind = record.kind || "push";
    const route = item.querySelector(".card-route");
    const links = item.querySelector(".card-links");
    let title = preview.title;
    if (record.kind === "channel") {
      // A channel-management request is an operation on the app's channels, not a notification.
      title = channelOperation(record);
      card.classList.add("operation");
      if (record.channelId) route.textContent = `channel ${record.channelId}`;
    } else if (record.kind === "broadcast") {
      // One request for every device subscribed to the channel: the devices are its own records.
      const reached = record.response && !failed(record) ? devicesReached(record) : 0;
      title = !record.response ? "Broadcast"
        : `Broadcast → ${reached === null || reached === undefined ? "?" : reached} device${reached === 1 ? "" : "s"}`;
      card.classList.add("broadcast");
      route.textContent = `channel ${record.channelId || "?"}`;
      links.append(el("a", { href: broadcastFilterLink(record.apnsId), text: "Show the broadcast and its deliveries" }));
      show(links, true);
    } else if (record.kind === "webPush") {
      // As Safari shows it: the site, the title, the body; the subscription it was sent to.
      const facts = record.webPush || {};
      card.classList.add("web-push");
      route.textContent = `Web Push to subscription ${shortToken(record.token || "?")}`;
      if (preview.navigate) {
        links.append(el("span", { class: "help", text: `Opens ${preview.navigate}` }));
        show(links, true);
      }
      if (!title && !preview.body) {
        title = facts.decrypted === false ? "Could not decrypt the message"
          : failed(record) ? "Rejected web push" : "(nothing to show)";
        card.classList.add("untitled");
      }
    } else {
      if (record.token) route.textContent = `to ${shortToken(record.token)}`;
      if (record.viaChannel) {
        route.textContent += ` via channel ${record.channelId || "?"}`;
        card.classList.add("via-channel");
      }
      if (!title && !preview.body) {
        if (record.pushType === "liveactivity" && typeof aps.event === "string") title = `Live Activity ${aps.event}`;
        else if (preview.silent) title = "Silent (background) push";
        else if (failed(record)) title = "Rejected push";
        else title = "(nothing to show)";
        card.classList.add("untitled");
      }
    }
    if (route.textContent) route.title = record.token || record.channelId || "";
    item.querySelector(".card-title").textContent = title || "";
    item.querySelector(".card-subtitle").textContent = preview.subtitle || "";
    item.querySelector(".card-body").textContent = preview.body || "";

    const contentState = aps["content-state"];
    if (contentState && typeof contentState === "object") {
      const list = item.querySelector(".card-state");
      for (const [key, value] of Object.entries(contentState)) {
        list.append(el("dt", { text: key }), el("dd", { text: text(value) }));
      }
      show(list, true);
    }

    const chips = item.querySelector(".card-chips");
    if (record.kind === "webPush") {
      const facts = record.webPush || {};
      chips.append(chip(preview.declarative ? "Declarative Web Push" : "Web Push"));
      if (facts.urgency) chips.append(chip(`urgency ${facts.urgency}`));
      if (typeof facts.ttl === "number") chips.append(chip(`TTL ${facts.ttl} s`));
      if (facts.topic) chips.append(chip(`topic ${facts.topic}`));
      if (facts.decryption && facts.decryption.problem) chips.append(chip(`not decrypted: ${facts.decryption.problem}`, "failed"));
    }
    if (record.pushType) chips.append(chip(record.pushType === "liveactivity" ? "Live Activity" : record.pushType));
    if (typeof aps.event === "string") chips.append(chip(`event: ${aps.event}`));
    if (preview.badge === 0) chips.append(chip("clears the badge"));
    if (preview.sound) {
      chips.append(chip(`sound: ${preview.sound.name || "(none)"}`));
      if (preview.sound.critical) {
        const volume = typeof preview.sound.volume === "number" ? ` ${Math.round(preview.sound.volume * 100)}%` : "";
        chips.append(chip(`critical sound${volume}`, "critical"));
      }
    }
    if (preview.interruptionLevel) chips.append(chip(preview.interruptionLevel, preview.interruptionLevel === "critical" ? "critical" : ""));
    const locale = state.devices.get((record.token || "").toLowerCase());
    if (locale) chips.append(chip(`locale: ${locale}`));
    if (record.priority !== null && record.priority !== undefined) chips.append(chip(`priority ${record.priority}`));
    if (record.faultId) chips.append(chip(`fault: ${record.faultId}`, "failed"));
    const errors = (record.lint || []).filter((finding) => finding.severity === "error").length;
    if (errors) chips.append(chip(`${errors} lint error${errors === 1 ? "" : "s"}`, "failed"));

    if (!record.response) {
      card.classList.add("pending");
      chips.append(chip("answer pending"));
    } else if (failed(record)) {
      card.classList.add("failed");
      const response = record.response;
      item.querySelector(".card-reason").textContent = response.goAway
        ? `GOAWAY ${response.reason || ""}`.trim()
        : `${response.status} ${response.reason || ""}`.trim();
      item.querySelector(".card-detail").textContent = record.detail || "";
      show(item.querySelector(".card-failure"), true);
    }
    if (state.selected === record.sequence) card.setAttribute("aria-current", "true");
    return item;
  }

  // MARK: the detail pane

  /** Shows a record in the detail pane: one of the list's, or `given` (read for an address that named it). */
  function openDetail(sequence, given) {
    const record = given || state.records.get(sequence);
    if (!record) return;
    for (const current of document.querySelectorAll('.card[aria-current="true"]')) current.removeAttribute("aria-current");
    const card = state.cards.get(sequence);
    if (card) card.querySelector(".card").setAttribute("aria-current", "true");
    state.selected = sequence;
    state.shown = record;
    renderDetail(record);
    show($("detail"), true);
    $("panel-deliveries").classList.add("with-detail");
    $("detail-title").focus();
    writeFragment();
  }

  /**
   * Opens the record the address names (`#record=N`) once the list is loaded: from the list, or
   * read from the API when the filter hides it or it is older than the page (it may be neither).
   */
  async function showWantedRecord() {
    const sequence = state.selected;
    if (sequence === null || (state.shown && state.shown.sequence === sequence)) return;
    if (state.records.has(sequence)) return openDetail(sequence);
    let page;
    try {
      page = await api("GET", `/v1/deliveries?since=${sequence - 1}&limit=1`);
    } catch (error) {
      return say($("problem"), `Record #${sequence} cannot be read: ${error.message}`);
    }
    if (state.selected !== sequence) return;  // another record was opened meanwhile
    const record = (page.deliveries || [])[0];
    if (record && record.sequence === sequence) return openDetail(sequence, record);
    say($("problem"), `Record #${sequence} is not stored (any more): the store was reset, cleared or it aged out.`);
    state.selected = null;
    writeFragment();
  }

  function closeDetail() {
    const sequence = state.selected;
    state.selected = null;
    state.shown = null;
    writeFragment();
    show($("detail"), false);
    $("panel-deliveries").classList.remove("with-detail");
    for (const current of document.querySelectorAll('.card[aria-current="true"]')) current.removeAttribute("aria-current");
    const card = state.cards.get(sequence);
    if (card) card.querySelector(".card").focus();
  }

  function section(title, ...content) {
    return el("section", { class: "detail-section" }, el("h3", { text: title }), ...content);
  }

  /** A broadcast: its channel and the devices it reached; a device's delivery: the channel and broadcast it came by. */
  function broadcastSection(record) {
    const link = el("p", {}, el("a", { href: broadcastFilterLink(record.apnsId), text: "Show the broadcast and its deliveries" }));
    if (record.kind !== "broadcast") {
      return section("Via channel", definitionList([["channel", record.channelId], ["broadcast apns-request-id", record.apnsId]]), link);
    }
    const reached = Array.from(state.records.values())
      .filter((other) => other.viaChannel && other.sequence > record.sequence && sameID(other.apnsId, record.apnsId));
    const count = record.response && !failed(record) ? devicesReached(record) : 0;
    return section("Broadcast", definitionList([["channel", record.channelId], ["devices reached", count === null ? "…" : count]]),
      // Each device's record in the server's words (its `summary`).
      reached.length ? el("ul", { class: "reached" }, reached.map((other) => el("li", {},
        el("a", { href: fragmentFor(filterQuery(), other.sequence) }, el("code", { text: other.summary || `#${other.sequence}` }))))) : null,
      link);
  }

  function renderDetail(record) {
    $("detail-title").textContent = `#${record.sequence} · ${record.apnsId || "no apns-id"}`;
    const response = record.response;
    const parts = [];
    parts.push(section("Answer",
      response
        ? definitionList([
          ["status", response.status],
          ["reason", response.reason],
          ["timestamp", response.timestamp],
          ["GOAWAY", response.goAway],
          ["outcome", record.outcome],
          ["answered at", time(record.respondedAt, true)],
          ["took", record.respondedAt && record.receivedAt ? `${record.respondedAt - record.receivedAt} ms` : undefined],
        ])
        : el("p", { text: `No answer yet (${record.outcome || "pending"}).` }),
      record.detail ? el("p", { class: "explain" }, el("strong", { text: "Why: " }), record.detail) : null));
    if (record.kind === "broadcast" || record.viaChannel) parts.push(broadcastSection(record));
    if (record.kind === "webPush" && record.webPush) {
      const facts = record.webPush;
      const vapid = facts.vapid || {};
      parts.push(section("Web Push", definitionList([
        ["site", facts.origin],
        ["subscription", facts.subscriptionId],
        ["VAPID subject", vapid.subject],
        ["VAPID key", vapid.publicKey],
        ["VAPID expires", vapid.expiresAt ? time(vapid.expiresAt, true) : undefined],
        ["TTL", facts.ttl],
        ["urgency", facts.urgency],
        ["topic", facts.topic],
        ["body on the wire", facts.bodySize !== undefined ? `${facts.bodySize} bytes, ${facts.contentEncoding || "no encoding"}` : undefined],
        ["decrypted", facts.decrypted],
      ]), facts.decryption ? el("p", { class: "explain" }, el("strong", { text: "Why it did not decrypt: " }),
        `${facts.decryption.problem}: ${facts.decryption.explanation}`) : null));
    }
    if (record.kind === "channel") {
      parts.push(section("Channel operation", definitionList([
        ["operation", channelOperation(record)], ["app", record.topic], ["channel", record.channelId],
      ])));
    }
    if (record.faultId) {
      const rule = el("div", {}, el("p", { text: `Rule '${record.faultId}' acted on this request.` }));
      parts.push(section("Fault rule", rule));
      api("GET", `/v1/faults/${encodeURIComponent(record.faultId)}`)
        .then((body) => rule.append(pretty(body)))
        .catch(() => rule.append(el("p", { class: "help", text: "The rule has been removed since." })));
    }
    parts.push(section("Request", definitionList([
      ["kind", record.kind],
      ["method", record.method],
      ["path", record.path],
      ["authority", record.authority],
      ["environment", record.environment],
      ["token", record.token],
      ["topic", record.topic],
      ["push type", record.pushType],
      ["priority", record.priority],
      ["expiration", record.expiration],
      ["collapse id", record.collapseId],
      ["channel", record.channelId],
      ["connection / stream", `${record.connectionId} / ${record.streamId}`],
      ["received at", time(record.receivedAt, true)],
      ["payload size", record.payloadSize !== undefined ? `${record.payloadSize} of ${record.payloadLimit ?? "?"} bytes` : undefined],
      ["device locale", state.devices.get((record.token || "").toLowerCase())],
    ])));
    parts.push(section("Headers", definitionList(Object.entries(record.headers || {}))));
    const auth = [];
    if (record.auth) auth.push(definitionList(Object.entries(record.auth)));
    if (record.authorization) auth.push(el("p", { class: "help", text: "Provider token (signature not kept):" }), pretty(record.authorization));
    parts.push(section("Authentication", auth.length ? auth : el("p", { text: "None presented." })));
    const findings = record.lint || [];
    parts.push(section(`Lint (${findings.length})`, findings.length
      ? el("ul", { class: "lint" }, findings.map((finding) => el("li", {},
        el("span", { class: finding.severity, text: `${finding.severity} ${finding.code}` }),
        finding.path ? ` at ${finding.path}: ` : ": ", finding.message)))
      : el("p", { text: "No findings." })));
    if (record.preview) parts.push(section("Preview", pretty(record.preview)));
    parts.push(section("Payload", pretty(record.payload === undefined ? null : record.payload)));
    parts.push(el("details", {}, el("summary", { text: "The whole record (JSON)" }), pretty(record)));
    $("detail-body").replaceChildren(...parts);
  }

  function cardKeys(event) {
    const card = event.target.closest(".card");
    if (!card || event.target.closest("a")) return;
    const cards = Array.from(document.querySelectorAll("#cards .card"));
    const index = cards.indexOf(card);
    let next = null;
    switch (event.key) {
      case "Enter":
      case " ":
        event.preventDefault();
        openDetail(Number(card.dataset.sequence));
        return;
      case "ArrowDown": next = cards[index + 1]; break;
      case "ArrowUp": next = cards[index - 1]; break;
      case "Home": next = cards[0]; break;
      case "End": next = cards[cards.length - 1]; break;
      default: return;
    }
    event.preventDefault();
    if (next) next.focus();
  }

  // MARK: panels

  let refreshTimer = null;
  /** Refreshes the panel on screen shortly after a delivery (counts, connections change). */
  function refreshSoon() {
    if (state.tab === "deliveries" || refreshTimer) return;
    refreshTimer = setTimeout(() => { refreshTimer = null; loadPanel(state.tab); }, 400);
  }

  function loadPanel(name) {
    if (name === "faults") return Promise.all([loadFaults(), loadModes(), loadBehaviors()]);
    if (name === "connections") return loadConnections();
    if (name === "registry") return loadRegistry();
    if (name === "device") return loadDevice();
    return Promise.resolve();
  }

  // Loads begun by opening each panel: only the newest one's end marks the panel loaded.
  const panelLoads = {};
  function selectTab(name, focus) {
    state.tab = name;
    for (const tab of document.querySelectorAll('[role="tab"]')) {
      const selected = tab.id === `tab-${name}`;
      tab.setAttribute("aria-selected", String(selected));
      tab.tabIndex = selected ? 0 : -1;
      if (selected && focus) tab.focus();
      show($(tab.getAttribute("aria-controls")), selected);
    }
    // The panel is aria-busy until what it shows is loaded: its lists change height when their
    // answers come, so what is below them (the new rule's form) moves only while it is busy.
    const panel = $(`panel-${name}`);
    const ticket = (panelLoads[name] = (panelLoads[name] || 0) + 1);
    panel.setAttribute("aria-busy", "true");
    loadPanel(name).catch(() => {}).finally(() => {
      if (ticket === panelLoads[name]) panel.setAttribute("aria-busy", "false");
    });
  }

  function tabKeys(event) {
    const tabs = Array.from(document.querySelectorAll('[role="tab"]'));
    const index = tabs.indexOf(event.target);
    let next = null;
    if (event.key === "ArrowRight") next = tabs[(index + 1) % tabs.length];
    else if (event.key === "ArrowLeft") next = tabs[(index - 1 + tabs.length) % tabs.length];
    else if (event.key === "Home") next = tabs[0];
    else if (event.key === "End") next = tabs[tabs.length - 1];
    if (!next) return;
    event.preventDefault();
    selectTab(next.id.replace("tab-", ""), true);
  }

  // Loads that redraw a list the page also changes: only the newest load started may draw it.
  // An earlier GET whose answer arrives later (one sent when the tab opened, answered after the
  // GET that follows an added rule) would otherwise put back the list as it was before the change.
  const newestLoads = {};
  async function newestGET(list, path) {
    const ticket = (newestLoads[list] = (newestLoads[list] || 0) + 1);
    const body = await api("GET", path);
    return ticket === newestLoads[list] ? body : null;
  }

  async function loadFaults() {
    const list = $("fault-list");
    let body;
    try { body = await newestGET("faults", "/v1/faults"); } catch (error) { return say($("fault-error"), error.message); }
    if (!body) return;
    const rules = body.faults || [];
    if (!rules.length) return list.replaceChildren(el("li", { class: "help", text: "No fault rules: every push is answered by the rules of APNs." }));
    list.replaceChildren(...rules.map((rule) => {
      const shown = Object.assign({}, rule);
      for (const key of ["id", "createdAt", "hits", "matches"]) delete shown[key];
      return el("li", { "data-fault-id": rule.id },
        el("div", { class: "row" },
          el("strong", { text: rule.id }),
          el("span", { class: "help", text: `matched ${rule.matches}, acted ${rule.hits}` }),
          el("button", {
            type: "button", class: "danger", "aria-label": `Delete rule ${rule.id}`, text: "Delete",
            onclick: () => deleteFault(rule.id),
          })),
        el("pre", { class: "compact", text: JSON.stringify(shown) }));
    }));
  }

  async function addFault(event) {
    event.preventDefault();
    const source = $("fault-json").value;
    let rule;
    try { rule = JSON.parse(source); } catch (error) {
      return say($("fault-error"), `The rule is not JSON: ${error.message}`);
    }
    try {
      const added = await api("POST", "/v1/faults", rule);
      say($("fault-error"), "");
      announce(`Rule ${added.id} added.`);
    } catch (error) {
      say($("fault-error"), error.message);
    }
    await loadFaults();
  }

  async function deleteFault(id) {
    try {
      await api("DELETE", `/v1/faults/${encodeURIComponent(id)}`);
      announce(`Rule ${id} deleted.`);
    } catch (error) {
      say($("fault-error"), error.message);
    }
    await loadFaults();
  }

  async function clearFaults() {
    try {
      const body = await api("DELETE", "/v1/faults");
      announce(`${body.removed} rules removed.`);
    } catch (error) {
      say($("fault-error"), error.message);
    }
    await loadFaults();
  }

  // Bumped by every switch a user flips: a reading of the modes begun before it is stale, and must
  // not put the box back as it was.
  let modeChanges = 0;

  async function loadModes() {
    const changes = modeChanges;
    let modes;
    try { modes = await api("GET", "/v1/modes"); } catch (error) { return say($("mode-error"), error.message); }
    if (changes !== modeChanges) return;
    $("mode-shutdown").checked = modes.shutdown;
    $("mode-unavailable").checked = modes.unavailable;
    $("mode-refuse-tls").checked = modes.refuseTls > 0;
    const notes = [];
    if (modes.unavailableUntil) notes.push(`unavailable until ${time(modes.unavailableUntil)}`);
    if (modes.refuseTls > 0) notes.push(`${modes.refuseTls} TLS handshakes still to refuse`);
    if (modes.throttle) notes.push(`throttle ${modes.throttle} (set at start)`);
    $("mode-summary").textContent = notes.join("; ");
  }

  async function toggleMode(event) {
    const box = event.target;
    modeChanges += 1;
    const paths = { "mode-shutdown": "shutdown", "mode-unavailable": "unavailable", "mode-refuse-tls": "refuse-tls" };
    let path = `/v1/modes/${paths[box.id]}`;
    if (box.checked && box.id === "mode-unavailable" && $("mode-unavailable-for").value.trim()) {
      path += `?for=${encodeURIComponent($("mode-unavailable-for").value.trim())}`;
    }
    if (box.checked && box.id === "mode-refuse-tls") path += `?count=${encodeURIComponent($("mode-refuse-count").value || "1")}`;
    try {
      await api(box.checked ? "POST" : "DELETE", path);
      say($("mode-error"), "");
      announce(`${paths[box.id]} ${box.checked ? "on" : "off"}.`);
    } catch (error) {
      say($("mode-error"), error.message);
    }
    modeChanges += 1;
    await loadModes();
  }

  async function loadBehaviors() {
    let body;
    try { body = await newestGET("behaviors", "/v1/behaviors"); } catch (error) { return say($("behavior-error"), error.message); }
    if (!body) return;
    const list = $("behavior-list");
    const behaviors = body.behaviors || [];
    if (!behaviors.length) return list.replaceChildren(el("li", { class: "help", text: "None switched on." }));
    list.replaceChildren(...behaviors.map((behavior) => el("li", {},
      el("div", { class: "row" },
        el("strong", { text: behavior.name }),
        behavior.lockout ? el("span", { class: "help", text: `lockout ${behavior.lockout}` }) : null,
        el("button", {
          type: "button", class: "danger", "aria-label": `Switch off ${behavior.name}`, text: "Switch off",
          onclick: async () => {
            try { await api("DELETE", `/v1/behaviors/${encodeURIComponent(behavior.name)}`); } catch (error) { say($("behavior-error"), error.message); }
            await loadBehaviors();
          },
        })))));
  }

  async function addBehavior(event) {
    event.preventDefault();
    const body = { name: $("behavior-name").value };
    const lockout = $("behavior-lockout").value.trim();
    if (lockout && body.name === "token-update-lockout") body.lockout = lockout;
    try {
      await api("POST", "/v1/behaviors", body);
      say($("behavior-error"), "");
    } catch (error) {
      say($("behavior-error"), error.message);
    }
    await loadBehaviors();
  }

  /** A table of objects, the columns in `columns` first, then any other field they have. */
  function objectTable(items, columns, caption) {
    if (!items.length) return el("p", { class: "help", text: `No ${caption}.` });
    const names = columns.slice();
    for (const item of items) for (const key of Object.keys(item)) if (!names.includes(key)) names.push(key);
    return el("table", {},
      el("caption", { class: "visually-hidden", text: caption }),
      el("thead", {}, el("tr", {}, names.map((name) => el("th", { scope: "col", text: name })))),
      el("tbody", {}, items.map((item) => el("tr", {}, names.map((name) => {
        const value = item[name];
        if (Array.isArray(value) && value.length > 3) {
          return el("td", {}, el("details", {}, el("summary", { text: `${value.length} items` }), pretty(value)));
        }
        return el("td", {}, el("code", { text: text(value) }));
      })))));
  }

  async function loadConnections() {
    let body;
    try { body = await api("GET", "/v1/connections"); } catch (error) { return say($("problem"), error.message); }
    const rows = (body.connections || []).slice().reverse().map((connection) => {
      const handshake = (connection.events || []).find((event) => event.kind === "handshake") || {};
      return {
        id: connection.id,
        peer: connection.peer,
        state: connection.state,
        opened: time(connection.openedAt, true),
        closed: connection.closedAt ? time(connection.closedAt, true) : "—",
        tls: [handshake.tlsVersion, handshake.alpn, handshake.serverName].filter(Boolean).join(" "),
        events: (connection.events || []).map((event) => {
          const rest = Object.assign({}, event);
          delete rest.at;
          delete rest.kind;
          const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : "";
          return `${time(event.at, true)} ${event.kind}${extra}`;
        }),
      };
    });
    $("connection-table").replaceChildren(objectTable(rows, ["id", "peer", "state", "opened", "closed", "tls", "events"], "connections"));
  }

  /** The first page of the devices (GET /v1/devices pages them by token): their locales for the records, and the page. */
  async function loadDevices() {
    const body = await api("GET", "/v1/devices");
    const devices = body.devices || [];
    state.devices = new Map(devices.filter((device) => device.locale).map((device) => [device.token.toLowerCase(), device.locale]));
    return { devices, count: body.count ?? devices.length };
  }

  async function loadRegistry() {
    try {
      const [keys, devices, channels] = await Promise.all([
        api("GET", "/v1/keys"), loadDevices(), api("GET", "/v1/channels"),
      ]);
      $("key-table").replaceChildren(objectTable(keys.keys || [], ["keyId", "teamId"], "provider keys"));
      $("device-table").replaceChildren(...deviceTable(devices.devices, devices.count));
      $("channel-table").replaceChildren(objectTable(channels.channels || [], ["channelId", "bundleId"], "channels"));
    } catch (error) {
      say($("problem"), error.message);
    }
  }

  /** The registered devices, each with its conditions, a presence to set and a link to its view. */
  function deviceTable(devices, count) {
    if (!devices.length) return [el("p", { class: "help", text: "No devices registered: PUT /v1/devices/{token} registers one." })];
    const columns = ["token", "topic", "environment", "state", "presence", "notifications", "installed"];
    const shown = count > devices.length
      ? [el("p", { class: "help", "data-device-count": String(count), text: `The first ${devices.length.toLocaleString("en")} of ${count.toLocaleString("en")} devices, by token: GET /v1/devices?after=… gives the next page.` })]
      : [];
    return [...shown, el("table", {},
      el("caption", { class: "visually-hidden", text: "devices" }),
      el("thead", {}, el("tr", {}, columns.map((name) => el("th", { scope: "col", text: name })), el("th", { scope: "col", text: "view" }))),
      el("tbody", {}, devices.map((device) => el("tr", { "data-token": device.token },
        columns.map((name) => {
          if (name !== "presence") return el("td", {}, el("code", { text: text(device[name]) }));
          const select = el("select", {
            "aria-label": `Presence of device ${shortToken(device.token)}`, "data-presence-of": device.token,
            onchange: async (event) => {
              try {
                await setPresence(device.token, event.target.value);
                say($("device-table-error"), "");
              } catch (error) {
                say($("device-table-error"), error.message);
              }
              await loadRegistry();
            },
          }, ["online", "offline", "lowPower"].map((presence) => el("option", { value: presence, text: presence })));
          select.value = device.presence || "online";
          const scheduled = (device.periods || []).length ? el("span", { class: "help", text: ` +${device.periods.length} scheduled` }) : null;
          return el("td", {}, select, scheduled);
        }),
        el("td", {}, el("button", {
          type: "button", "aria-label": `Show what device ${shortToken(device.token)} shows`, text: "Show",
          onclick: () => showDevice(device.token),
        }))))))];
  }

  /**
   * Sets a device's presence with `PUT /v1/devices/{token}`: the registration as it is (the route
   * replaces the whole device), its scheduled periods dropped, the new presence; an unknown device
   * is registered with that presence alone.
   */
  async function setPresence(token, presence) {
    state.presenceChanges += 1;
    const path = `/v1/devices/${encodeURIComponent(token)}`;
    let body = { presence };
    try {
      body = Object.assign({}, await api("GET", path), { presence });
      delete body.token;
      delete body.periods;
    } catch (error) {
      if (error.status !== 404) throw error;
    }
    try {
      await api("PUT", path, body);
      announce(`Device ${shortToken(token)} is ${presence}.`);
    } finally {
      state.presenceChanges += 1;
    }
  }

  // MARK: the device view

  const DEVICE_POLL_MS = 1000;

  /** Opens the Device tab on `token`. */
  function showDevice(token) {
    state.device = token.trim().toLowerCase();
    state.deviceShown = "";
    $("device-token").value = state.device;
    selectTab("device", false);
  }

  async function loadDevice() {
    const token = state.device;
    if (!token) return show($("device-view"), false);
    const changes = state.presenceChanges;
    let view;
    try {
      view = await newestGET("device", `/v1/devices/${encodeURIComponent(token)}/notifications`);
    } catch (error) {
      state.deviceShown = "";
      show($("device-view"), false);
      return say($("device-error"), error.message);
    }
    if (!view || token !== state.device || changes !== state.presenceChanges) return;
    say($("device-error"), "");
    const json = JSON.stringify(view);
    if (json === state.deviceShown) return;
    state.deviceShown = json;
    renderDevice(view);
  }

  function appOf(item) {
    return (item.topic || "").replace(/\.push-type\.[a-z]+$/, "") || (item.channelId ? "broadcast" : "(no topic)");
  }

  /** One banner of the device view: a notification, a held push or a Live Activity. */
  function viewCard(item, { className, title, when, chips, contentState }) {
    const preview = item.preview || {};
    const app = appOf(item);
    const stateList = el("dl", { class: "card-state" });
    for (const [key, value] of Object.entries(contentState && typeof contentState === "object" ? contentState : {})) {
      stateList.append(el("dt", { text: key }), el("dd", { text: text(value) }));
    }
    return el("li", { class: "card-item", "data-sequence": item.sequence },
      el("article", { class: `card ${className}`, "data-sequence": item.sequence, "data-apns-id": item.apnsId || "" },
        el("div", { class: "card-head" },
          el("span", { class: "app-icon", "aria-hidden": "true" },
            el("span", { class: "app-letter", text: (app.split(".").pop() || "?").charAt(0).toUpperCase() })),
          el("span", { class: "app-name", text: app }),
          el("time", { class: "card-time", datetime: new Date(when).toISOString(), text: time(when) })),
        el("h3", { class: "card-title", text: title !== undefined ? title : preview.title || "" }),
        el("p", { class: "card-subtitle", text: preview.subtitle || "" }),
        el("p", { class: "card-body", text: preview.body || "" }),
        stateList.childElementCount ? stateList : null,
        el("p", { class: "card-chips" }, chips.filter(Boolean))));
  }

  function renderDevice(view) {
    show($("device-view"), true);
    $("device-title").textContent = `Device ${shortToken(view.token)}`;
    $("device-title").title = view.token;
    const conditions = view.conditions;
    $("device-conditions").textContent = `${conditions.presence}; notifications ${conditions.notifications}; ${conditions.installed ? "installed" : "not installed"}; as of ${time(view.now)}`;
    if (document.activeElement !== $("device-presence")) $("device-presence").value = conditions.presence;

    const shown = view.notifications.length;
    $("device-notification-count").textContent = view.notificationCount === 0
      ? "Nothing shown yet: only delivered alert pushes show."
      : `${view.notificationCount} shown, newest first${view.notificationCount > shown ? ` (the newest ${shown} listed)` : ""}.`;
    $("device-notifications").replaceChildren(...view.notifications.map((item) => viewCard(item, {
      className: "shown", when: item.deliveredAt,
      chips: [
        item.collapseId ? chip(`collapse id: ${item.collapseId}`) : null,
        item.replaced ? chip(`replaced ${item.replaced} older`) : null,
        item.preview && item.preview.sound ? chip(`sound: ${item.preview.sound.name || "(none)"}`) : null,
      ],
    })));

    const badges = Object.entries(view.badges);
    $("device-badges").replaceChildren(badges.length
      ? el("ul", { class: "badge-list" }, badges.map(([topic, badge]) => el("li", { "data-topic": topic },
        el("span", { class: "app-icon", "aria-hidden": "true" },
          el("span", { class: "app-letter", text: (topic.split(".").pop() || "?").charAt(0).toUpperCase() }),
          Number.isInteger(badge) && badge > 0 ? el("span", { class: "badge", text: String(badge) }) : null),
        el("span", { text: `${topic}: ${badge === null ? "no badge" : badge}` }))))
      : el("p", { class: "empty", text: "No badge: no push delivered set one." }));

    $("device-activities").replaceChildren(...(view.liveActivities.length ? view.liveActivities.map((activity) => viewCard(activity, {
      className: activity.ended ? "ended" : "activity", when: activity.updatedAt, contentState: activity.contentState,
      title: `Live Activity${activity.ended ? " (ended)" : ""}`,
      chips: [
        chip(`event: ${activity.event}`),
        activity.channelId ? chip(`channel ${activity.channelId}`) : null,
        activity.stale ? chip("stale", "critical") : null,
        activity.dismissed ? chip("dismissed") : null,
        activity.ended && !activity.dismissed && activity.dismissalDate ? chip(`dismissed at ${time(activity.dismissalDate, true)}`) : null,
        chip(`${activity.pushes} push${activity.pushes === 1 ? "" : "es"}`),
      ],
    })) : [el("li", { class: "empty", text: "No Live Activity." })]));

    $("device-stored").replaceChildren(...(view.stored.length ? view.stored.map((item) => viewCard(item, {
      className: "stored", when: item.storedAt,
      title: item.preview && (item.preview.title || item.preview.body) ? undefined : "(nothing to show)",
      chips: [
        chip(`held: ${item.cause}`),
        chip(`until ${time(item.until, true)}`),
        item.channelId ? chip(`channel ${item.channelId}`) : null,
      ],
    })) : [el("li", { class: "empty", text: "APNs holds nothing for this device." })]));
  }

  let devicePolling = false;
  /** Every second while the Device tab is on screen: the view again (an unchanged one is not redrawn). */
  async function pollDevice() {
    if (devicePolling || state.tab !== "device" || !state.device || document.visibilityState !== "visible") return;
    devicePolling = true;
    try { await loadDevice(); } finally { devicePolling = false; }
  }

  // MARK: start

  function useToken(event) {
    event.preventDefault();
    const value = $("token-input").value.trim();
    if (value) sessionStorage.setItem(TOKEN_KEY, value);
    $("token-input").value = "";
    tokenChanged();
  }

  function tokenChanged() {
    $("token-form").classList.remove("needed");
    $("token-input").placeholder = token() ? "token set for this tab" : "only with --admin-token";
    say($("problem"), "");
    state.tokenAsked = false;
    // The devices' locales first, so that the first cards can name them.
    loadDevices().catch(() => {}).finally(startDeliveries);
    loadPanel(state.tab).catch(() => {});
  }

  /**
   * The address changed its fragment (a link such as a broadcast's "Show … its deliveries", an
   * address typed or pasted): apply its filter and record as if chosen in the page.
   */
  function fragmentChanged() {
    const fragment = readFragment();
    if (fragment.token) {
      sessionStorage.setItem(TOKEN_KEY, fragment.token);
      $("filter-input").value = fragment.filter || "";
      state.selected = recordFromFragment(fragment);
      state.shown = null;
      return tokenChanged();  // writes the fragment without the token, loads the list, opens the record
    }
    const filter = (fragment.filter || "").trim();
    const wanted = recordFromFragment(fragment);
    if (wanted === null && state.selected !== null) closeDetail();
    if (filter !== filterQuery()) {
      $("filter-input").value = filter;
      state.selected = wanted;
      startDeliveries();  // opens the record once the list is loaded
    } else if (wanted !== null && wanted !== state.selected) {
      state.selected = wanted;
      showWantedRecord();
    } else {
      writeFragment();
    }
  }

  function init() {
    // `#token=…` in the address: taken into session storage and removed from the address (a
    // fragment never reaches the server, and is not left in the history either).
    // `#filter=…` and `#record=…`: the filter, and the record to open; without either, the
    // filter this tab used last (session storage).
    const fragment = readFragment();
    if (fragment.token) sessionStorage.setItem(TOKEN_KEY, fragment.token);
    const fromAddress = "filter" in fragment || "record" in fragment;
    $("filter-input").value = fromAddress ? fragment.filter || "" : sessionStorage.getItem(FILTER_KEY) || "";
    state.selected = recordFromFragment(fragment);
    writeFragment();
    $("token-form").addEventListener("submit", useToken);
    $("token-forget").addEventListener("click", () => { sessionStorage.removeItem(TOKEN_KEY); tokenChanged(); });
    $("filter-form").addEventListener("submit", (event) => { event.preventDefault(); startDeliveries(); });
    $("filter-clear").addEventListener("click", () => { $("filter-input").value = ""; startDeliveries(); });
    $("cards").addEventListener("keydown", cardKeys);
    window.addEventListener("hashchange", fragmentChanged);
    $("cards").addEventListener("click", (event) => {
      if (event.target.closest("a")) return;  // a card's link changes the address (hashchange)
      const card = event.target.closest(".card");
      if (card) openDetail(Number(card.dataset.sequence));
    });
    $("detail-close").addEventListener("click", closeDetail);
    $("detail").addEventListener("keydown", (event) => { if (event.key === "Escape") closeDetail(); });
    for (const tab of document.querySelectorAll('[role="tab"]')) {
      tab.addEventListener("click", () => selectTab(tab.id.replace("tab-", ""), false));
      tab.addEventListener("keydown", tabKeys);
    }
    $("fault-form").addEventListener("submit", addFault);
    $("faults-clear").addEventListener("click", clearFaults);
    for (const id of ["mode-shutdown", "mode-unavailable", "mode-refuse-tls"]) $(id).addEventListener("change", toggleMode);
    $("behavior-form").addEventListener("submit", addBehavior);
    $("device-form").addEventListener("submit", (event) => {
      event.preventDefault();
      showDevice($("device-token").value);
    });
    $("device-presence").addEventListener("change", async (event) => {
      const token = state.device;
      try {
        await setPresence(token, event.target.value);
        say($("device-error"), "");
      } catch (error) {
        say($("device-error"), error.message);
      }
      state.deviceShown = "";
      await loadDevice();
    });
    setInterval(pollDevice, DEVICE_POLL_MS);
    for (const button of document.querySelectorAll("[data-refresh]")) {
      button.addEventListener("click", () => loadPanel(button.dataset.refresh === "registry" ? "registry" : "connections"));
    }
    tokenChanged();
  }

  init();
})();
