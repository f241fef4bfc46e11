# syntax=docker/dockerfile:1
#
# apns-mock in a container.
#
#   docker build -t apns-mock .
#   docker run --rm -p 127.0.0.1:2197:2197 -p 127.0.0.1:2198:2198 apns-mock
#
# docker-compose.yml builds this same image and serves APNs on port 443 under Apple's host names inside a compose
# network; see the comments there.
#
# The admin API (port 2198) has no authentication yet (a later issue adds it): publish it on the host's loopback
# address only (`-p 127.0.0.1:2198:2198`), never on all interfaces.

# Package.swift declares swift-tools-version 6.2, so the toolchain must be 6.2 or newer (6.0 and 6.1 images cannot
# read the manifest). Override with `--build-arg SWIFT_VERSION=6.3`.
ARG SWIFT_VERSION=6.2

# ---- build ------------------------------------------------------------------------------------------------------
FROM swift:${SWIFT_VERSION}-bookworm AS build

# System libraries the CNGHTTP2 and COpenSSL system-library targets find through pkg-config.
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update \
    && apt-get install -y --no-install-recommends libnghttp2-dev libssl-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src

# Resolve dependencies in their own layer so that editing sources does not fetch them again. `Package.*` also picks
# up Package.resolved when the build context has one (it is git-ignored, so a fresh clone has none).
COPY Package.* ./
RUN swift package resolve

COPY . .
RUN swift build -c release --product apns-mock \
    && install -D -m 0755 "$(swift build -c release --show-bin-path)/apns-mock" /out/apns-mock

# ---- runtime ----------------------------------------------------------------------------------------------------
# The slim image carries the Swift runtime libraries (Foundation included) but no compiler.
FROM swift:${SWIFT_VERSION}-bookworm-slim

# libnghttp2-14 and libssl3 are the runtime halves of the -dev packages above; curl is for the compose healthcheck.
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update \
    && apt-get install -y --no-install-recommends libnghttp2-14 libssl3 curl ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 apnsmock \
    && useradd --system --uid 10001 --gid 10001 --home-dir /app --shell /usr/sbin/nologin apnsmock

WORKDIR /app

COPY --from=build /out/apns-mock /usr/local/bin/apns-mock
# The committed development certificates (tests only; see certs/README.md). `serve` reads certs/server.pem and
# certs/server-key.pem relative to the working directory by default. Owned by the service user so that
# `apns-mock certs generate --out certs` also works inside the container.
COPY --chown=10001:10001 certs/ /app/certs/

# Not root. Port 2197 needs no privilege. Port 443 is bindable by
# non-root users in containers because Docker (20.10 and later) sets net.ipv4.ip_unprivileged_port_start=0 in each
# container's network namespace; docker-compose.yml also sets that sysctl explicitly.
USER 10001:10001

# 443 and 2197: APNs on both of Apple's ports (`--port` repeats). 2198: admin API.
EXPOSE 443 2197 2198

ENTRYPOINT ["apns-mock", "serve"]
# Inside the container both listeners bind all interfaces, otherwise published ports could not reach them; what is
# reachable from outside is decided where the ports are published (-p / ports:).
CMD ["--host", "0.0.0.0", "--port", "443", "--port", "2197", "--admin-host", "0.0.0.0", "--admin-port", "2198", "--environment", "auto"]
