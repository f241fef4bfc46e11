# Sourced by scripts/image.sh and scripts/test-dist.sh: podman as this sandbox needs it. Writes a containers.conf
# into the directory "$work" names (the caller's temporary directory) and exports CONTAINERS_CONF; defines pm,
# podman with the runc runtime.
cat >"$work/containers.conf" <<'CONF'
[containers]
# The sandbox refuses the nofile/nproc ulimits podman sets by default.
default_ulimits = []

[engine]
# crun is refused by the sandbox; runc works. (`--runtime runc` is also passed on each podman command line.)
runtime = "runc"
CONF
export CONTAINERS_CONF="$work/containers.conf"
pm() { podman --runtime runc "$@"; }
