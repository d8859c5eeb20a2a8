#!/usr/bin/env bash
# Builds a Debian base image locally, for building the service's image (Dockerfile) where no image
# registry is reachable (CI here): `debootstrap --variant=minbase bookworm` from Debian's package
# mirror, then `docker import`. About a minute. Nothing else is in it: the Dockerfile installs what
# each stage needs (Debian's nodejs and npm to run `npm ci` in the build stage, tini in the runtime
# stage), so the runtime stage does not carry Debian's Node 18 and its hundred node-* packages.
#
#   scripts/docker-base-image.sh            # makes local/debian:bookworm unless it exists
#   BASE_IMAGE=local/debian:bookworm docker build --network host --build-arg BASE_IMAGE ...
#
# Idempotent: an existing image is kept (`docker rmi local/debian:bookworm` to rebuild it).
# Needs root (debootstrap) and a Docker engine; DEBIAN_MIRROR picks the mirror. Exits non-zero,
# saying why in one line, when it cannot make the image.
set -euo pipefail
IMAGE=${LOCAL_BASE_IMAGE:-local/debian:bookworm}
SUITE=bookworm
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

say() { echo "docker-base-image: $*"; }
fail() { say "$*" >&2; exit 1; }
exists() { docker image inspect "$IMAGE" >/dev/null 2>&1; }

command -v docker >/dev/null || fail "no docker command (scripts/docker-engine.sh installs the engine)"
docker version --format '{{.Server.Version}}' >/dev/null 2>&1 || fail "no Docker engine answers (run scripts/docker-engine.sh as root)"
if exists; then say "$IMAGE exists"; exit 0; fi

# Two callers at once (a test and a person) make the image once.
exec 9>"${TMPDIR:-/tmp}/docker-base-image.lock"
flock 9
if exists; then say "$IMAGE exists"; exit 0; fi

[ "$(id -u)" = 0 ] || fail "debootstrap needs root; run this as root, or build with --build-arg BASE_IMAGE=node:22-bookworm-slim where a registry is reachable"
if ! command -v debootstrap >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  command -v apt-get >/dev/null || fail "no debootstrap and no apt-get to install it"
  apt-get install -y -qq debootstrap >/tmp/docker-base-image-apt.log 2>&1 ||
    { apt-get update -qq >>/tmp/docker-base-image-apt.log 2>&1 && apt-get install -y -qq debootstrap >>/tmp/docker-base-image-apt.log 2>&1; } ||
    fail "apt-get install debootstrap failed (see /tmp/docker-base-image-apt.log)"
fi

ROOTFS=$(mktemp -d /var/tmp/debian-rootfs.XXXXXX)
trap 'rm -rf "$ROOTFS"' EXIT
started=$SECONDS
say "debootstrap --variant=minbase $SUITE from $MIRROR (about a minute)"
debootstrap --variant=minbase "$SUITE" "$ROOTFS" "$MIRROR" >/tmp/docker-base-image-debootstrap.log 2>&1 ||
  fail "debootstrap failed (see /tmp/docker-base-image-debootstrap.log)"

# Security and point-release updates too, as the official images have them.
cat >"$ROOTFS/etc/apt/sources.list" <<EOF
deb $MIRROR $SUITE main
deb $MIRROR $SUITE-updates main
deb http://deb.debian.org/debian-security $SUITE-security main
EOF
# What the official images do: no package caches, no recommended packages, no docs or man pages.
cat >"$ROOTFS/etc/apt/apt.conf.d/docker-clean" <<'EOF'
APT::Install-Recommends "false";
APT::Install-Suggests "false";
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
EOF
rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/usr/share/doc/* "$ROOTFS"/usr/share/man/* "$ROOTFS"/tmp/*

tar --numeric-owner -C "$ROOTFS" -c . |
  docker import --change 'ENV LANG=C.UTF-8' --change 'CMD ["/bin/bash"]' - "$IMAGE" >/dev/null ||
  fail "docker import failed"
say "$IMAGE made in $((SECONDS - started)) s ($(docker image inspect --format '{{.Size}}' "$IMAGE" | awk '{printf "%.0f MB", $1/1e6}'))"
