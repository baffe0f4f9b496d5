#!/usr/bin/env bash
# The container image's figures (bench/README.md, "The container image"): its size, the time from
# `docker run` and from the process's start in the container to the first answered request (the
# health check, polled every 5 ms) and to the first API answer, and the time `docker stop` takes
# (SIGTERM), each start RUNS times (default 5), in three settings: in memory (the default), with
# its store on a volume (SANDBOX_DATA, a new volume each run) and loading a snapshot (SANDBOX_LOAD,
# one taken from the first in-memory run). The last two are eager starts: the file is checked before
# the socket opens (docs/behaviour.md#package-and-start). Build the image first: npm run image.
#   bash bench/image.sh [RUNS] [IMAGE]
set -euo pipefail
RUNS="${1:-5}"
IMAGE="${2:-paysandbox:local}"
PORT=4619
TOKEN=bench-image
KEY='Authorization: Bearer sk_test_sandbox'
SNAPSHOT="$(mktemp -d)/funded.snapshot.json"
ms() { echo $(( ($2 - $1) / 1000000 )); }

# one start: docker run with "$@" before the image, then the figures of one line
measure() {
  local label=$1; shift
  local t0 t1 t2 s0 s1 id started
  t0=$(date +%s%N)
  id=$(docker run -d -p "127.0.0.1:$PORT:4010" -e "SANDBOX_CONTROL_TOKEN=$TOKEN" "$@" "$IMAGE")
  until curl -sf -o /dev/null "http://127.0.0.1:$PORT/_sandbox/health"; do sleep 0.005; done
  t1=$(date +%s%N)
  started=$(date -d "$(docker inspect -f '{{.State.StartedAt}}' "$id")" +%s%N)
  curl -sf -o /dev/null -H "$KEY" "http://127.0.0.1:$PORT/merchant/api/v1/balances"
  t2=$(date +%s%N)
  if [ ! -s "$SNAPSHOT" ]; then
    curl -sf -H "$KEY" -H "x-sandbox-control-token: $TOKEN" "http://127.0.0.1:$PORT/_sandbox/snapshot" |
      node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>process.stdout.write(JSON.stringify(JSON.parse(s).data)))' >"$SNAPSHOT"
  fi
  s0=$(date +%s%N)
  docker stop "$id" >/dev/null
  s1=$(date +%s%N)
  echo "$label: docker run to first answer $(ms "$t0" "$t1") ms (process start to first answer $(ms "$started" "$t1") ms), to first API answer $(ms "$t0" "$t2") ms; docker stop $(ms "$s0" "$s1") ms, exit $(docker inspect -f '{{.State.ExitCode}}' "$id")"
  docker rm "$id" >/dev/null
}

docker image ls "$IMAGE"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
for _ in $(seq "$RUNS"); do measure 'in memory'; done
for _ in $(seq "$RUNS"); do
  vol=$(docker volume create)
  measure 'SANDBOX_DATA on a volume' -v "$vol:/data" -e SANDBOX_DATA=/data/sandbox.json
  docker volume rm "$vol" >/dev/null
done
for _ in $(seq "$RUNS"); do measure 'SANDBOX_LOAD, a snapshot' -v "$SNAPSHOT:/paysandbox/funded.snapshot.json:ro" -e SANDBOX_LOAD=/paysandbox/funded.snapshot.json; done
rm -rf "$(dirname "$SNAPSHOT")"
