# syntax=docker/dockerfile:1
#
# apns-mock in a container. Two ways to get the binary, one runtime stage for both:
#
#   docker build -t apns-mock .                     # from source, in an official swift image (needs a registry)
#
#   make release-static                             # on a Debian bookworm host with Swift: writes dist/apns-mock
#   podman build --format docker --target runtime-prebuilt -t apns-mock .   # no Swift image needed
#   (`make image` does both with podman; `make test-image` also runs and checks the image)
#
#   docker run --rm -p 127.0.0.1:2197:2197 -p 127.0.0.1:2195:2195 -p 127.0.0.1:2198:2198 apns-mock
#
# The binary links the Swift runtime, FoundationEssentials, OpenSSL, libnghttp2 and libyaml statically and needs
# only glibc, so the image is FROM scratch: the binary, glibc's files, CA certificates and a user; no shell, no
# package manager, no curl (`apns-mock healthcheck` is the health check). No files need mounting: the server generates its development CA and certificate at start
# (into $XDG_STATE_HOME, /app/state); a client fetches that CA from the admin port, GET /v1/ca.pem.
#
# The admin API (port 2198) listens on all interfaces inside the container, without a token unless
# APNS_MOCK_ADMIN_TOKEN is set: publish it on the host's loopback only (`-p 127.0.0.1:2198:2198`).

# Package.swift declares swift-tools-version 6.2, so the toolchain must be 6.2 or newer. Override with
# `--build-arg SWIFT_VERSION=6.3`.
ARG SWIFT_VERSION=6.2
# The runtime base. `make image` creates debian:bookworm-slim locally (debootstrap) when no registry is reachable.
ARG RUNTIME_BASE=debian:bookworm-slim

# ---- build (from source) --------------------------------------------------------------------------------------
FROM swift:${SWIFT_VERSION}-bookworm AS build

# System libraries the CNGHTTP2 and COpenSSL system-library targets find through pkg-config; make runs the same
# release-static target as a host build (one place for the release flags).
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update \
    && apt-get install -y --no-install-recommends libnghttp2-dev libssl-dev libyaml-dev pkg-config make \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src

# Resolve dependencies in their own layer so that editing sources does not fetch them again. `Package.*` also picks
# up Package.resolved when the build context has one (it is git-ignored, so a fresh clone has none).
COPY Package.* ./
RUN swift package resolve

COPY . .
RUN make release-static IMAGE_SCRATCH=.build && install -D -m 0755 dist/apns-mock /out/apns-mock

# ---- the image's files (shared) -------------------------------------------------------------------------------
# The binary needs only glibc (OpenSSL, libnghttp2, libyaml and the Swift runtime are linked in): the image is
# FROM scratch with the binary, the glibc files it loads, CA certificates and the apnsmock user, gathered here by
# scripts/image-rootfs.sh. No shell and no package manager: the health check is `apns-mock healthcheck`.
FROM ${RUNTIME_BASE} AS files-base
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/*
COPY scripts/image-rootfs.sh /usr/local/bin/image-rootfs.sh

FROM files-base AS files-prebuilt
COPY dist/apns-mock /tmp/apns-mock
RUN image-rootfs.sh /tmp/apns-mock /rootfs

FROM files-base AS files
COPY --from=build /out/apns-mock /tmp/apns-mock
RUN image-rootfs.sh /tmp/apns-mock /rootfs

# ---- runtime (shared settings) -----------------------------------------------------------------------------------
FROM scratch AS runtime-base
ENV PATH=/usr/local/bin

WORKDIR /app

# No certificates in the image: a CA whose key shipped in every copy would be a hole in any trust store it is added
# to. With no certs/ in the working directory, `serve` generates a development CA and server certificate (for
# localhost, the service name apns-mock and Apple's APNs, broadcast and management host names) into
# $XDG_STATE_HOME/apns-mock at start; clients fetch the CA from GET /v1/ca.pem. Mount a volume on /app/state to keep
# one CA across restarts, or mount certs/ on /app/certs to serve your own.
ENV XDG_STATE_HOME=/app/state

# Not root. Ports 2195, 2197 and 2198 need no privilege. Port 443 does, unless the container's network namespace
# sets net.ipv4.ip_unprivileged_port_start=0: Docker 20.10 and later set it in every container; podman does not
# (pass `--sysctl net.ipv4.ip_unprivileged_port_start=0`); docker-compose.yml sets it explicitly.
USER 10001:10001

# 443 and 2197: APNs on both of Apple's ports (`--port` repeats). 2195: channel management (Apple's sandbox
# management port, `--channels-port`). 2198: admin API.
EXPOSE 443 2197 2195 2198 2199

# Probes the admin port of the default command; change it if you move the admin API (--admin-port).
HEALTHCHECK --interval=5s --timeout=3s --start-period=5s --retries=3 \
    CMD ["apns-mock", "healthcheck", "--admin", "http://127.0.0.1:2198"]

ENTRYPOINT ["apns-mock", "serve"]
# Inside the container all listeners bind all interfaces, otherwise published ports could not reach them; what is
# reachable from outside is decided where the ports are published (-p / ports:). The admin API refuses to listen
# on a non-loopback address without a token unless told so: --admin-insecure says so for the case without
# APNS_MOCK_ADMIN_TOKEN; when that variable is set, every admin call but /health needs `Authorization: Bearer …`.
CMD ["--host", "0.0.0.0", "--port", "443", "--port", "2197", "--channels-port", "2195", "--webpush-port", "2199", "--admin-host", "0.0.0.0", "--admin-port", "2198", "--environment", "auto", "--admin-insecure"]

# ---- runtime from a binary built on the host (make release-static) ------------------------------------------------
FROM runtime-base AS runtime-prebuilt
COPY --from=files-prebuilt /rootfs/ /

# ---- a client for the image test: Debian with curl (the image itself has no programs but apns-mock) --------------
FROM ${RUNTIME_BASE} AS test-client
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update && apt-get install -y --no-install-recommends curl ca-certificates && rm -rf /var/lib/apt/lists/*
USER 10001:10001
ENTRYPOINT []

# ---- the packages' test (make test-dist): Debian with Python, Node, Java and Go; no Swift, no sources ------------
# scripts/test-dist.sh runs it with dist/ and one of Tests/Dist's projects mounted read-only, installs that package
# (pip, npm, javac's classpath, go get from dist/goproxy) and runs the project's test, as a team without Swift would.
# Only Debian's packages: Node 18 and npm 9, OpenJDK 17 with Jackson and JUnit 5, Go 1.19. openjdk's set-up links its
# manual pages into /usr/share/man/man1, which the slim base image leaves out.
FROM ${RUNTIME_BASE} AS dist-test
RUN export DEBIAN_FRONTEND=noninteractive \
    && mkdir -p /usr/share/man/man1 \
    && apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates python3 python3-venv nodejs npm \
       openjdk-17-jdk-headless libjackson2-databind-java junit5 golang-go \
    && rm -rf /var/lib/apt/lists/*
# No C compiler here, so no cgo (net takes its pure-Go resolver); Go's standard library compiled once, into the image's
# build cache, rather than in every run (about 15 s).
ENV CGO_ENABLED=0 GOCACHE=/var/cache/go-build
RUN go build std
WORKDIR /work

# ---- runtime from source (the default target) ------------------------------------------------------------------
FROM runtime-base AS runtime
COPY --from=files /rootfs/ /
