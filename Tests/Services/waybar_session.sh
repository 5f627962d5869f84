#!/bin/sh
# A desktop for one test: a headless sway and, on it, the real waybar with the config $2; then
# each line read on stdin is run as a shell command (stdout and stderr to the log $3), answered
# "done STATUS" on stdout. Used by WaybarFollowTests.
#
#   waybar_session.sh SWAY_CONFIG WAYBAR_CONFIG LOG
#
# Run it as the first process of private user, pid and mount namespaces (`unshare --user --pid
# --fork --kill-child --mount-proc`): sway refuses to start as root, and in a user namespace that
# maps no uid it is nobody, as an ordinary user is; `pkill` in a command sees only this session's
# processes, not another test's followers; and when this script ends (end of input, or killed
# with the test), the kernel ends every process of the namespace: sway, waybar and what waybar
# started. XDG_RUNTIME_DIR (a private folder), HOME and PATH come from the caller.
set -u
sway_config=$1 waybar_config=$2 log=$3
exec 2>>"$log"

WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
  sway --config "$sway_config" >>"$log" 2>&1 </dev/null &

# sway names its socket wayland-1 (or the next free number) in the private runtime folder.
tries=0
WAYLAND_DISPLAY=
while [ -z "$WAYLAND_DISPLAY" ]; do
  for socket in "$XDG_RUNTIME_DIR"/wayland-*; do
    if [ -S "$socket" ]; then WAYLAND_DISPLAY=${socket##*/}; fi
  done
  if [ -z "$WAYLAND_DISPLAY" ]; then
    tries=$((tries + 1))
    if [ "$tries" -gt 600 ]; then echo "failed: sway made no Wayland socket in 60 s (its log: $log)"; exit 1; fi
    sleep 0.1
  fi
done
export WAYLAND_DISPLAY

waybar --config "$waybar_config" --log-level debug >>"$log" 2>&1 </dev/null &
echo "ready $WAYLAND_DISPLAY"

while IFS= read -r command; do
  sh -c "$command" >>"$log" 2>&1 </dev/null
  echo "done $?"
done
