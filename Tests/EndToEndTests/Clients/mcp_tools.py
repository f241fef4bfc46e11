"""Drives apns-mock's MCP endpoint with the `mcp` client library from PyPI (Streamable HTTP).

Usage: mcp_tools.py ADMIN_URL ADMIN_TOKEN ACCEPTED_APNS_ID REFUSED_APNS_ID TOKEN

Lists the tools, calls each one, and prints one JSON line per step: the tool, whether the result
is an error, its text and its structured content. Then checks that a client without the admin
token is refused (401) before any tool is listed.
"""

import asyncio
import base64
import json
import sys

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

ADMIN, TOKEN, ACCEPTED, REFUSED, DEVICE = sys.argv[1:6]


def emit(step, result):
    print(
        json.dumps(
            {
                "step": step,
                "isError": result.is_error,
                "text": "\n".join(c.text for c in result.content if c.type == "text"),
                "structured": result.structured_content,
            }
        ),
        flush=True,
    )


async def main():
    headers = {"authorization": f"Bearer {TOKEN}"}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        async with streamable_http_client(f"{ADMIN}/mcp", http_client=http) as streams:
            read, write = streams[0], streams[1]
            async with ClientSession(read, write) as session:
                initialized = await session.initialize()
                print(
                    json.dumps(
                        {
                            "step": "initialize",
                            "server": initialized.server_info.name,
                            "protocolVersion": initialized.protocol_version,
                        }
                    ),
                    flush=True,
                )
                tools = await session.list_tools()
                print(json.dumps({"step": "list", "tools": sorted(t.name for t in tools.tools)}), flush=True)
                emit("server_info", await session.call_tool("server_info", {}))
                emit("list_deliveries", await session.call_tool("list_deliveries", {"match": {"token": DEVICE}}))
                emit("device_notifications", await session.call_tool("device_notifications", {"token": DEVICE}))
                emit(
                    "wait_for_deliveries",
                    await session.call_tool(
                        "wait_for_deliveries", {"match": {"token": DEVICE, "status": 200}, "count": 1, "timeout": "5s"}
                    ),
                )
                emit(
                    "wait_timeout",
                    await session.call_tool(
                        "wait_for_deliveries",
                        {"match": {"token": DEVICE, "payload": {"aps": {"alert": {"title": "Nope"}}}}, "timeout": "300ms"},
                    ),
                )
                emit("explain_refused", await session.call_tool("explain_delivery", {"apnsId": REFUSED}))
                emit("explain_accepted", await session.call_tool("explain_delivery", {"apnsId": ACCEPTED}))
                rule = {"id": "gone", "match": {"token": DEVICE}, "action": {"respond": {"status": 410, "reason": "Unregistered"}}}
                emit("add_fault", await session.call_tool("add_fault", {"rule": rule}))
                emit("add_fault_again", await session.call_tool("add_fault", {"rule": rule}))
                emit("add_fault_replace", await session.call_tool("add_fault", {"rule": rule, "replace": True}))
                emit("list_faults", await session.call_tool("list_faults", {}))
                emit("delete_fault", await session.call_tool("delete_fault", {"id": "gone"}))
                emit(
                    "set_device",
                    await session.call_tool(
                        "set_device", {"token": DEVICE, "device": {"topic": "com.example.app", "state": "unregistered"}}
                    ),
                )
                # A fleet in one change.
                emit(
                    "set_devices",
                    await session.call_tool(
                        "set_devices",
                        {"fleet": {"devices": [{"token": "ab" * 32, "presence": "offline"}, {"token": "cd" * 32}]}},
                    ),
                )
                # A Web Push subscription for a VAPID key, as a browser makes one.
                from cryptography.hazmat.primitives import serialization
                from cryptography.hazmat.primitives.asymmetric import ec
                point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
                    serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
                key = base64.urlsafe_b64encode(point).rstrip(b"=").decode()
                emit(
                    "subscribe_webpush",
                    await session.call_tool(
                        "subscribe_webpush", {"subscription": {"applicationServerKey": key, "origin": "https://example.com"}}
                    ),
                )
                emit("provider_report", await session.call_tool("provider_report", {"window": "10m"}))
                emit(
                    "verify",
                    await session.call_tool(
                        "verify", {"expectations": {"expect": [{"name": "one", "match": {"token": DEVICE}, "count": {"atLeast": 1}}]}}
                    ),
                )
                # Bad arguments: a tool error the assistant can read, not a crash.
                emit("bad_argument_name", await session.call_tool("list_deliveries", {"mach": {}}))
                emit("bad_argument_type", await session.call_tool("wait_for_deliveries", {"count": "three"}))
                emit("bad_match_field", await session.call_tool("list_deliveries", {"match": {"stauts": 410}}))
                emit("missing_argument", await session.call_tool("delete_fault", {}))
                emit("unknown_fault", await session.call_tool("delete_fault", {"id": "no-such-rule"}))
                try:
                    await session.call_tool("no_such_tool", {})
                    print(json.dumps({"step": "unknown_tool", "raised": None}), flush=True)
                except Exception as error:  # the server answers a JSON-RPC error
                    print(json.dumps({"step": "unknown_tool", "raised": str(error)}), flush=True)
                emit("reset", await session.call_tool("reset", {}))
    # Without the token: refused before anything is listed.
    async with httpx2.AsyncClient(timeout=10) as http:
        response = await http.post(
            f"{ADMIN}/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            headers={"accept": "application/json, text/event-stream"},
        )
        print(json.dumps({"step": "no_token", "status": response.status_code}), flush=True)


asyncio.run(main())
