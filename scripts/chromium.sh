#!/usr/bin/env bash
# Makes Debian's chromium available for the SCORM player's browser tests (test/browser/), which
# drive it with playwright-core. Where it can (root on Debian) it installs the `chromium` package.
# It never fails: where it cannot, it prints one line saying why and exits 0, and those tests are
# then counted as skipped (test/support/browser.ts says so loudly).
set -u
say() { echo "chromium: $*"; }
found() { command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; }

if found; then say "already installed ($(command -v chromium || echo /usr/bin/chromium))"; exit 0; fi
if [ "$(id -u)" != 0 ]; then say "not root; chromium not installed (the browser tests will be skipped)"; exit 0; fi
if ! command -v apt-get >/dev/null || ! grep -qi debian /etc/os-release 2>/dev/null; then
  say "not Debian; chromium not installed (the browser tests will be skipped)"; exit 0
fi

export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -qq --no-install-recommends chromium >/tmp/chromium-apt.log 2>&1; then
  apt-get update -qq >/tmp/chromium-apt.log 2>&1 || true
  if ! apt-get install -y -qq --no-install-recommends chromium >>/tmp/chromium-apt.log 2>&1; then
    say "apt-get install chromium failed (see /tmp/chromium-apt.log); the browser tests will be skipped"; exit 0
  fi
fi
if found; then say "installed"; else say "installed, but no chromium on PATH (see /tmp/chromium-apt.log); the browser tests will be skipped"; fi
exit 0
