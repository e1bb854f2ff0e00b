#!/usr/bin/env bash
# Installs the real protocol servers the client tests run against (Debian 12 packages; recipes
# from ../shared/docs/test-servers.md). Idempotent: does nothing when everything is there.
set -euo pipefail
PKGS=(vsftpd pygopherd gophernicus inetutils-inetd nginx-light fingerd finger python3 curl netcat-openbsd procps time
  inetutils-telnetd tmux)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "test servers missing (${missing[*]}): run as root once, or: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
# Keep maintainer scripts from starting the daemons on their default ports.
[ -x /usr/sbin/policy-rc.d ] || { printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod 755 /usr/sbin/policy-rc.d; }
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
