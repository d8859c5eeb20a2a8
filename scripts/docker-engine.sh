#!/usr/bin/env bash
# Makes a local Docker engine answer on /var/run/docker.sock for the real-engine assessment test.
# Where it can (root on Debian) it installs docker.io and busybox-static and starts dockerd without
# bridge networking (assessment containers run with --network none). It never fails: where it
# cannot, it prints one line saying why and exits 0, and that test is then counted as skipped.
set -u
SOCK=/var/run/docker.sock
LOG=${DOCKERD_LOG:-/tmp/dockerd.log}

say() { echo "docker-engine: $*"; }
answers() {
  [ -S "$SOCK" ] || return 1
  if command -v curl >/dev/null; then curl -sf --max-time 2 --unix-socket "$SOCK" http://engine/_ping >/dev/null 2>&1; else return 0; fi
}

if answers; then say "an engine already answers on $SOCK"; exit 0; fi
if [ "$(id -u)" != 0 ]; then say "not root; no engine started (the real-engine test will be skipped)"; exit 0; fi
if ! command -v apt-get >/dev/null || ! grep -qi debian /etc/os-release 2>/dev/null; then
  say "not Debian; no engine started (the real-engine test will be skipped)"; exit 0
fi

if ! command -v dockerd >/dev/null || [ ! -x /bin/busybox ]; then
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -qq docker.io busybox-static >/tmp/docker-engine-apt.log 2>&1; then
    apt-get update -qq >/tmp/docker-engine-apt.log 2>&1 || true
    if ! apt-get install -y -qq docker.io busybox-static >>/tmp/docker-engine-apt.log 2>&1; then
      say "apt-get install docker.io busybox-static failed (see /tmp/docker-engine-apt.log); no engine started"; exit 0
    fi
  fi
fi

# systemd is not PID 1 here: start the daemon directly, in the background, detached from this shell.
nohup dockerd --bridge=none --iptables=false --ip-forward=false --ip-masq=false >"$LOG" 2>&1 </dev/null &
for _ in $(seq 1 100); do
  if answers; then say "dockerd answers on $SOCK"; exit 0; fi
  sleep 0.1
done
say "dockerd did not answer within 10 s (see $LOG); the real-engine test will be skipped"
exit 0
