#!/bin/sh
# install-deps.sh - install what building and testing xiri needs on Debian
# 12 (as root, or with sudo).  Safe to run again.
set -e
pkgs="build-essential autoconf automake libtool pkg-config
      libxml2-dev libicu-dev libcunit1-dev liburiparser-dev
      zlib1g-dev liblzma-dev
      python3 python3-idna groff-base clang libclang-rt-14-dev clang-tools-14
      valgrind parallel strace time"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
        || missing="$missing $p"
done
[ -z "$missing" ] && { echo "install-deps: all packages present"; exit 0; }
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "install-deps: installed$missing"
