"""Pushes as fast as it can, then kills the server with SIGKILL mid-load (issue 22, the journal).

    journal_kill.py PORT CA_FILE AUTHORIZATION SERVER_PID SECONDS

32 concurrent pushes at a time over HTTP/2 (httpx), each with its own apns-id, for SECONDS;
then it stops counting answers and sends SIGKILL to SERVER_PID while pushes are in flight.
Prints one JSON object: the apns-ids answered 200 before the kill, and how many pushes failed
after it (they must: the server is gone).
"""

import asyncio
import json
import os
import signal
import sys
import uuid

import httpx


async def main() -> None:
    port, ca_file, authorization, pid, seconds = sys.argv[1:6]
    token = os.urandom(32).hex()
    url = f"https://localhost:{port}/3/device/{token}"
    headers = {"authorization": authorization, "apns-topic": "com.example.app", "apns-push-type": "alert"}
    answered: list[str] = []
    failed_after_kill = 0
    killed = False

    async with httpx.AsyncClient(http2=True, verify=ca_file, timeout=10) as client:

        async def pusher(number: int) -> None:
            nonlocal failed_after_kill
            sequence = 0
            while True:
                sequence += 1
                apns_id = str(uuid.uuid4()).upper()
                body = json.dumps({"aps": {"alert": f"pusher {number} push {sequence}"}})
                try:
                    response = await client.post(url, headers={**headers, "apns-id": apns_id}, content=body)
                except Exception:
                    if killed:
                        failed_after_kill += 1
                        return
                    raise
                if killed:
                    return
                if response.status_code != 200:
                    raise RuntimeError(f"push answered {response.status_code}: {response.text}")
                answered.append(apns_id)

        tasks = [asyncio.create_task(pusher(number)) for number in range(32)]
        await asyncio.sleep(float(seconds))
        # Stop counting first: an answer counted is one the client had before the kill.
        killed = True
        os.kill(int(pid), signal.SIGKILL)
        results = await asyncio.gather(*tasks, return_exceptions=True)
        errors = [repr(result) for result in results if isinstance(result, BaseException)]
    print(json.dumps({"answered": answered, "failedAfterKill": failed_after_kill, "errors": errors}))


asyncio.run(main())
