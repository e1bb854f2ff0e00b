# tn3270 (RFC 1576): the Hercules S/370 emulator (Debian's hercules 3.13) with no operating system
# loaded, as a TN3270 console server on 127.0.0.1:3270 with sixteen 3270 displays (devices
# 0010-001F: Hercules does not notice that an idle client left, so each session of a test run
# takes a fresh device; a client finding none gets a "Connection rejected, no available 3270
# device" screen). A client that negotiates TERMINAL-TYPE IBM-3278-2, BINARY and END-OF-RECORD
# gets Hercules' own logo screen (an Erase/Write data stream). Runs in daemon mode (-d: no panel,
# messages to hercules.log) with stdin from /dev/null; one process, stopped with SIGTERM.
: "${TS:?TS must point at the test state directory}"
H="$TS/hercules"; mkdir -p "$H"
cat > "$H/hercules.cnf" <<'CNF'
CPUSERIAL 000611
CPUMODEL  3090
MAINSIZE  16
XPNDSIZE  0
CNSLPORT  127.0.0.1:3270
NUMCPU    1
ARCHMODE  S/370
PANRATE   SLOW
0009      3215
0010-001F 3270
CNF
( cd "$H" && exec setsid hercules -d -f hercules.cnf < /dev/null > hercules.log 2>&1 ) &
echo $! > "$H/pid"
# Not wait_tcp: a probe connection would take the only 3270 device until Hercules notices it left.
for i in $(seq 1 100); do grep -q 'Waiting for console connection' "$H/hercules.log" 2>/dev/null && break; sleep 0.1; done
grep -q 'Waiting for console connection' "$H/hercules.log" || { echo "hercules did not start" >&2; cat "$H/hercules.log" >&2; exit 1; }
