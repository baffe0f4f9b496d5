#!/usr/bin/env bash
# The container image's figures (bench/README.md, "The container image"): its size, the time from
# `docker run` and from the process's start in the container to the first answered request (the
# health check, polled every 5 ms) and to the first API answer, and the time `docker stop` takes
# (SIGTERM), each start RUNS times (default 5). Build the image first: npm run image.
#   bash bench/image.sh [RUNS] [IMAGE]
set -euo pipefail
RUNS="${1:-5}"
IMAGE="${2:-paysandbox:local}"
PORT=4619
ms() { echo $(( ($2 - $1) / 1000000 )); }
docker image ls "$IMAGE"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
for _ in $(seq "$RUNS"); do
  t0=$(date +%s%N)
  id=$(docker run -d -p "127.0.0.1:$PORT:4010" "$IMAGE")
  until curl -sf -o /dev/null "http://127.0.0.1:$PORT/_sandbox/health"; do sleep 0.005; done
  t1=$(date +%s%N)
  started=$(date -d "$(docker inspect -f '{{.State.StartedAt}}' "$id")" +%s%N)
  curl -sf -o /dev/null -H 'Authorization: Bearer sk_test_sandbox' "http://127.0.0.1:$PORT/merchant/api/v1/balances"
  t2=$(date +%s%N)
  s0=$(date +%s%N)
  docker stop "$id" >/dev/null
  s1=$(date +%s%N)
  echo "docker run to first answer $(ms "$t0" "$t1") ms (process start to first answer $(ms "$started" "$t1") ms), to first API answer $(ms "$t0" "$t2") ms; docker stop $(ms "$s0" "$s1") ms, exit $(docker inspect -f '{{.State.ExitCode}}' "$id")"
  docker rm "$id" >/dev/null
done
