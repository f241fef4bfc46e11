#!/bin/sh
# The files of the container image, gathered into ROOT by the Dockerfile (in a Debian stage; the image itself is
# FROM scratch): the binary, the glibc files it loads (what ldd lists: the loader, libc, libm and whatever else the
# binary names), Debian's CA certificates, /etc/passwd and /etc/group with the apnsmock user (uid 10001), a
# /tmp, and /app/state for the development CA. No shell, no package manager, no other program.
#
#   scripts/image-rootfs.sh BINARY ROOT
set -eu
binary=$1
root=$2
mkdir -p "$root/usr/local/bin" "$root/etc/ssl/certs" "$root/app/state" "$root/tmp"
install -m 0755 "$binary" "$root/usr/local/bin/apns-mock"
# ldd's lines: "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x…)" and "/lib64/ld-linux-x86-64.so.2 (0x…)".
ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | while read -r library; do
    cp --parents -L "$library" "$root"
done
cp -L /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
printf 'root:x:0:0:root:/root:/nonexistent\napnsmock:x:10001:10001:apns-mock:/app:/nonexistent\n' > "$root/etc/passwd"
printf 'root:x:0:\napnsmock:x:10001:\n' > "$root/etc/group"
printf 'passwd: files\ngroup: files\nhosts: files dns\n' > "$root/etc/nsswitch.conf"
chmod 1777 "$root/tmp"
chown -R 10001:10001 "$root/app"
chmod 0700 "$root/app" "$root/app/state"
