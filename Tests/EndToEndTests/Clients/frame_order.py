"""A raw HTTP/2 client that shows the order of the frames the server sends: it opens TLS (ALPN
h2), sends the preface, SETTINGS and one push (HEADERS, DATA), acknowledges the server's
SETTINGS, and reads frames until the server closes the connection (or TIMEOUT seconds pass).
Frames are read as bytes, not by an HTTP/2 library, so nothing after a GOAWAY is dropped or
refused (nghttp stops reading once its last stream ends; python-hyper's h2 refuses frames
after a GOAWAY).

Prints one JSON object: `frames`, each "TYPE STREAM" (HEADERS 1, DATA 1, GOAWAY 0, RST_STREAM 3,
SETTINGS 0, ...), `status` (the :status of stream 1, if any) and `closed` (the server closed).

usage: frame_order.py PORT CA_FILE AUTHORIZATION PATH [HEADER=VALUE ...] [--timeout SECONDS]
"""

import json
import socket
import ssl
import struct
import sys

import hpack

NAMES = {
    0: "DATA",
    1: "HEADERS",
    2: "PRIORITY",
    3: "RST_STREAM",
    4: "SETTINGS",
    5: "PUSH_PROMISE",
    6: "PING",
    7: "GOAWAY",
    8: "WINDOW_UPDATE",
    9: "CONTINUATION",
}


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def main():
    arguments = sys.argv[1:]
    timeout = 5.0
    if "--timeout" in arguments:
        index = arguments.index("--timeout")
        timeout = float(arguments[index + 1])
        del arguments[index : index + 2]
    port, ca_file, authorization, path = arguments[:4]
    extra = [tuple(pair.split("=", 1)) for pair in arguments[4:]]
    context = ssl.create_default_context(cafile=ca_file)
    context.set_alpn_protocols(["h2"])
    tls = context.wrap_socket(socket.create_connection(("127.0.0.1", int(port))), server_hostname="localhost")
    tls.settimeout(timeout)
    encoder = hpack.Encoder()
    decoder = hpack.Decoder()
    body = json.dumps({"aps": {"alert": "frame order"}}).encode()
    headers = [
        (":method", "POST"),
        (":scheme", "https"),
        (":authority", "localhost"),
        (":path", path),
        ("authorization", authorization),
        ("apns-topic", "com.example.app"),
        ("apns-push-type", "alert"),
    ] + extra
    tls.sendall(
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
        + frame(4, 0, 0)
        + frame(1, 0x4, 1, encoder.encode(headers))
        + frame(0, 0x1, 1, body)
    )
    frames, status, closed = [], None, False
    data = b""
    try:
        while True:
            chunk = tls.recv(65536)
            if not chunk:
                closed = True
                break
            data += chunk
            while len(data) >= 9:
                length = int.from_bytes(data[0:3], "big")
                if len(data) < 9 + length:
                    break
                kind, flags = data[3], data[4]
                stream = int.from_bytes(data[5:9], "big") & 0x7FFFFFFF
                payload = data[9 : 9 + length]
                data = data[9 + length :]
                frames.append("%s %d" % (NAMES.get(kind, str(kind)), stream))
                if kind == 4 and not flags & 0x1:
                    tls.sendall(frame(4, 0x1, 0))
                if kind == 1 and stream == 1:
                    for name, value in decoder.decode(payload):
                        if name == ":status":
                            status = int(value)
    except (socket.timeout, ConnectionResetError, ssl.SSLError):
        pass
    print(json.dumps({"frames": frames, "status": status, "closed": closed}))


main()
