# Sourced by scripts/run (not run on its own): the app's steps and servers as children it can
# stop, every one of them and everything they started, on Ctrl-C, `kill -INT`, `kill -TERM` or
# a closed terminal.
#
#   signals_default "$@"   first thing in the script: started in the background by a shell
#                          without job control (`scripts/run &` in a script), bash inherits
#                          SIGINT ignored and may neither trap nor reset it; start the script
#                          again with SIGINT at its default, so Ctrl-C and `kill -INT` work
#   children_trap          on INT, TERM and HUP stop the children, then exit 130, 143, 129;
#                          on any exit stop the children that are left
#   child_start CMD...     start CMD in a process group of its own (its pid in $!)
#   child_run CMD...       run CMD as a child and wait for it; returns its status
#   children_stop          TERM to every child's process group, KILL to what is left after
#                          NETSHOP_STOP_TIMEOUT_S (default 10) seconds
#
# Each child leads a process group of its own (job control, set -m): stopping a child stops
# what it started too (pip under scripts/bootstrap, a server's workers), and a signal meant for
# scripts/run's group never reaches them before scripts/run decides how to stop them.

children=()

signals_default() {
  if [ -z "${NETSHOP_RUN_SIGNALS_RESET:-}" ] && [ -n "$(trap -p INT)" ]; then
    export NETSHOP_RUN_SIGNALS_RESET=1 # once: never a loop
    local python=${PYTHON:-python3.11}
    command -v "$python" >/dev/null || python=python3
    exec "$python" -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$0" "$@"
  fi
  unset NETSHOP_RUN_SIGNALS_RESET
}

children_trap() {
  set -m
  trap 'children_stop; exit 130' INT
  trap 'children_stop; exit 143' TERM
  trap 'children_stop; exit 129' HUP
  trap 'children_stop' EXIT
}

child_start() {
  "$@" &
  children+=("$!")
}

child_run() {
  child_start "$@"
  local pid=$! status=0
  wait "$pid" || status=$?
  children=()
  return "$status"
}

children_kill() {
  local pid
  for pid in "${children[@]}"; do kill "-$1" -- "-$pid" 2>/dev/null || true; done
}

children_stop() {
  [ "${#children[@]}" -gt 0 ] || return 0
  trap 'children_kill KILL' INT TERM HUP # asked again while stopping: at once
  children_kill TERM
  local pids=("${children[@]}")
  (
    sleep "${NETSHOP_STOP_TIMEOUT_S:-10}"
    for pid in "${pids[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done
  ) &
  local watchdog=$!
  wait "${pids[@]}" 2>/dev/null || true
  kill -KILL -- "-$watchdog" 2>/dev/null || true
  children_kill KILL # whatever a child left behind in its group
  wait "$watchdog" 2>/dev/null || true
  children=()
}
