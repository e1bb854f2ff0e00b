#!/usr/bin/env bash
# Installs the real protocol servers the client tests run against (Debian 12 packages; recipes
# from test/data/docs/test-servers.md). Idempotent: does nothing when everything is there.
set -euo pipefail
PKGS=(
  vsftpd pygopherd gophernicus inetutils-inetd nginx-light fingerd finger python3 curl netcat-openbsd procps time
  opensmtpd python3-aiosmtpd openssl # smtp.sh
  rsh-redone-server # rlogin.sh
  hercules # hercules.sh
  s3270 # the TN3270E tests: the x3270 family's scripted client reads the same session as locator
  inetutils-telnetd tmux # telnet.sh, the terminal tests of locator connect
  chromium lynx # the gateway's browser and Lynx tests
  linkchecker dnsmasq # locator check: the peer of its benchmark; a DNS server with MX records for mailto probes
  python3-distributed python3-dask # the Dask driver's LocalCluster test (bench/dask, issue 16)
  wget # test/archive: the peer that writes WARC files (--warc-file) for locator's reader
  inn2 # nntp.sh (installed last, see below)
)
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
rest=(); for p in "${missing[@]}"; do [ "$p" = inn2 ] || rest+=("$p"); done
[ ${#rest[@]} -eq 0 ] || apt-get install -y -qq --no-install-recommends "${rest[@]}" >/dev/null
# INN last (after any mail server, or it pulls in exim4): its postinst fails when the host name
# has no domain (test-servers.md section 1); set one and finish the configuration.
if [[ " ${missing[*]} " == *" inn2 "* ]]; then
  apt-get install -y -qq --no-install-recommends inn2 >/dev/null || true
  sed -i 's/^#*domain:.*/domain:                      example.test/' /etc/news/inn.conf
  dpkg --configure -a
  dpkg-query -W -f='${Status}' inn2 | grep -q 'install ok installed'
fi
