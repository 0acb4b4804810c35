#!/usr/bin/env bash
# Measures ./billing dev: milliseconds from launch to the banner and to the first answered request
# (GET /v1/dev/clock), and how many lines it printed before the banner. Build first (the launcher
# would otherwise build and the build would be timed); then run from the repository root:
#   devstack/startup-time.sh [runs]      (extra ./billing dev arguments: STARTUP_ARGS="--verbose")
# Uses ports 8080, 8081, 7233, 8000 like ./billing dev, and stops the stack it started.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1}
port=${BILLING_PORT:-8080}
log=$(mktemp)
trap 'rm -f "$log"' EXIT

answered() {
  # Plain bash, no curl: one HTTP/1.0 request, true when the status line says 200.
  local status
  exec 3<>"/dev/tcp/localhost/$port" 2>/dev/null || return 1
  printf 'GET /v1/dev/clock HTTP/1.0\r\nAuthorization: Bearer dev\r\n\r\n' >&3
  read -r -t 5 _ status _ <&3 || status=
  exec 3<&- 3>&-
  [[ $status == 200 ]]
}

for ((run = 1; run <= runs; run++)); do
  start=$(date +%s%N)
  # shellcheck disable=SC2086
  ./billing dev ${STARTUP_ARGS:-} >"$log" 2>&1 &
  pid=$!
  banner=
  until grep -q 'Billing dev stack is up' "$log"; do
    kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "./billing dev exited" >&2; exit 1; }
    sleep 0.02
  done
  banner=$(( ($(date +%s%N) - start) / 1000000 ))
  until answered; do sleep 0.02; done
  first=$(( ($(date +%s%N) - start) / 1000000 ))
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  # The banner opens with a blank line: the lines above that were printed before it.
  before=$(( $(grep -n -m1 'Billing dev stack is up' "$log" | cut -d: -f1) - 2 ))
  echo "run $run: banner ${banner} ms, first answered request ${first} ms, ${before} lines before the banner (load $(cut -d' ' -f1 /proc/loadavg))"
done
