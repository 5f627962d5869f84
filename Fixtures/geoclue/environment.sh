#!/bin/bash
# The real GeoClue 2.6 daemon for one test, run by Tests/HereWeatherTests/Support/GeoClueHarness.swift
# inside `unshare --mount --net --fork --kill-child`:
#
#   environment.sh DIR GEOCLUE AGENT      (GEOCLUE: yes, no or activatable; AGENT: yes or no)
#
# DIR holds geoclue.conf, response.json and optionally delay (seconds before the geolocate
# service answers), written by the harness. In the test's own mount
# namespace geoclue.conf is bind-mounted over /etc/geoclue/geoclue.conf; in its own network
# namespace only loopback exists, plus a default route through it (GeoClue's network monitor
# wants one before its web sources run), so nothing can leave the machine. Started here:
#   - geolocate-server.py on 127.0.0.1:8999, GeoClue's Wi-Fi service (requests in DIR/requests.log);
#   - dbus-daemon with system-bus.conf on unix:path=DIR/bus (everyone else's DBUS_SYSTEM_BUS_ADDRESS);
#   - if GEOCLUE=yes, /usr/libexec/geoclue (log: DIR/geoclue.log), once it owns org.freedesktop.GeoClue2
#     (with GEOCLUE=activatable the bus only lists it as activatable: system-bus-activatable.conf);
#   - if AGENT=yes, GeoClue's demo agent, once GeoClue has seen it register.
# Then prints "ready" and waits until its standard input (the harness's lifeline) reaches its
# end, when the harness stops or dies; it then kills everything it started and removes DIR.
set -u
dir=$1 geoclue=$2 agent=$3
here=$(cd "$(dirname "$0")" && pwd)
exec 2>>"$dir/environment.log"
pids=()

finish() {
    [ ${#pids[@]} -gt 0 ] && kill -KILL "${pids[@]}" 2>/dev/null
    wait
    rm -rf "$dir"
}
fail() { echo "environment.sh: $*" >&2; finish; exit 1; }

# Waits up to 20 s (in 50 ms steps) for a command to succeed.
wait_for() {
    local what=$1; shift
    for _ in $(seq 400); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.05
    done
    fail "not ready within 20 s: $what"
}

mount --bind "$dir/geoclue.conf" /etc/geoclue/geoclue.conf || fail "cannot bind-mount geoclue.conf (is geoclue-2.0 installed?)"
if [ -d /etc/geoclue/conf.d ]; then mount -t tmpfs tmpfs /etc/geoclue/conf.d || fail "cannot hide /etc/geoclue/conf.d"; fi
ip link set lo up || fail "ip link set lo up"
ip route add default dev lo || fail "ip route add default dev lo"

delay=$(cat "$dir/delay" 2>/dev/null || echo 0)
/usr/bin/python3 "$here/geolocate-server.py" 8999 "$dir/response.json" "$dir/requests.log" "$delay" </dev/null >/dev/null &
pids+=($!)
wait_for "geolocate server" bash -c 'exec 5<>/dev/tcp/127.0.0.1/8999'

export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$dir/bus"
bus_conf=system-bus.conf
[ "$geoclue" = activatable ] && bus_conf=system-bus-activatable.conf
dbus-daemon --config-file="$here/$bus_conf" --address="$DBUS_SYSTEM_BUS_ADDRESS" --nofork </dev/null >/dev/null &
pids+=($!)
has_owner() {
    dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner "string:$1" | grep -q 'boolean true'
}
wait_for "dbus-daemon" has_owner org.freedesktop.DBus

if [ "$geoclue" = yes ]; then
    G_MESSAGES_DEBUG=all /usr/libexec/geoclue --timeout=0 </dev/null >"$dir/geoclue.log" 2>&1 &
    pids+=($!)
    wait_for "GeoClue on the bus" has_owner org.freedesktop.GeoClue2
    if [ "$agent" = yes ]; then
        /usr/libexec/geoclue-2.0/demos/agent </dev/null >"$dir/agent.log" 2>&1 &
        pids+=($!)
        wait_for "GeoClue's demo agent" grep -q "New agent for user ID" "$dir/geoclue.log"
    fi
fi

echo ready
read -r _
finish
