// Sends pushes on one HTTP/2 session, one after another (or all at once with --burst), and
// prints one JSON line: each push's status, reason and apns-id, the GOAWAYs received, the
// MAX_CONCURRENT_STREAMS values the server announced, and pushes refused by a GOAWAY that were
// retried (up to three times, on a new session after a GOAWAY) as providers should.
// usage: node node_sequence.mjs PORT CA_FILE JWT SPEC_JSON
//   SPEC_JSON: {"pushes": [{"token": "...", "topic"?: "...", "jwt"?: "..."}], "burst"?: bool,
//               "pauseMs"?: number, "retryRefused"?: bool, "timeoutMs"?: number}
import http2 from "node:http2";
import fs from "node:fs";

const [port, caFile, jwt, specText] = process.argv.slice(2);
const spec = JSON.parse(specText);
const ca = fs.readFileSync(caFile);
const result = { results: [], goaways: [], maxConcurrentStreams: [], sessions: 0, retried: 0 };

function connect() {
  result.sessions += 1;
  const session = http2.connect(`https://localhost:${port}`, { ca });
  session.on("error", (error) => (result.sessionError = String(error)));
  session.on("remoteSettings", (settings) => result.maxConcurrentStreams.push(settings.maxConcurrentStreams));
  session.on("goaway", (errorCode, lastStreamID, opaqueData) => {
    session.goneAway = true;
    result.goaways.push({ errorCode, lastStreamID, debug: opaqueData ? opaqueData.toString() : "" });
  });
  return session;
}

function push(session, item) {
  return new Promise((resolve) => {
    let request;
    try {
      request = session.request({
        ":method": "POST",
        ":path": `/3/device/${item.token}`,
        authorization: `bearer ${item.jwt ?? jwt}`,
        "apns-topic": item.topic ?? "com.example.app",
        "apns-push-type": "alert",
      });
    } catch (error) {
      resolve({ error: String(error.code ?? error) });
      return;
    }
    const answer = { status: 0, body: "" };
    request.setTimeout(spec.timeoutMs ?? 5000, () => {
      answer.error = "timeout";
      request.close(http2.constants.NGHTTP2_CANCEL);
    });
    request.on("response", (headers) => {
      answer.status = headers[":status"];
      answer.apnsId = headers["apns-id"];
    });
    request.setEncoding("utf8");
    request.on("data", (chunk) => (answer.body += chunk));
    request.on("error", (error) => (answer.error = String(error.code ?? error)));
    request.on("close", () => {
      if (!answer.status && !answer.error) answer.error = `closed rstCode=${request.rstCode}`;
      answer.rstCode = request.rstCode;
      if (answer.body) answer.reason = JSON.parse(answer.body).reason;
      resolve(answer);
    });
    request.end(JSON.stringify({ aps: { alert: "sequence" } }));
  });
}

// Unanswered, and not by a timeout: refused (REFUSED_STREAM) or above a GOAWAY's last stream id,
// which a provider retries on a new connection (RFC 9113 §6.8).
const refused = (answer) => !answer.status && answer.error !== "timeout";

let session = connect();
let answers;
if (spec.burst) {
  answers = await Promise.all(spec.pushes.map((item) => push(session, item)));
} else {
  answers = [];
  for (const item of spec.pushes) {
    if (session.closed || session.destroyed || session.goneAway) session = connect();
    answers.push(await push(session, item));
    if (spec.pauseMs) await new Promise((r) => setTimeout(r, spec.pauseMs));
  }
}
if (spec.retryRefused) {
  // A retry may be refused again (a new token connection allows one stream until its first
  // accepted push; a GOAWAY may come mid-retry): up to three attempts per push.
  for (let i = 0; i < answers.length; i++) {
    for (let attempt = 0; attempt < 3 && refused(answers[i]); attempt++) {
      if (session.closed || session.destroyed || session.goneAway) session = connect();
      result.retried += 1;
      answers[i] = { ...(await push(session, spec.pushes[i])), retried: attempt + 1 };
    }
  }
}
result.results = answers;
console.log(JSON.stringify(result));
session.close();
setTimeout(() => process.exit(0), 200).unref();
