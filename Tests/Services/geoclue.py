#!/usr/bin/python3
"""A GeoClue2 stand-in for tests: the parts of GeoClue's documented D-Bus interface a client
uses (Manager.GetClient; a Client's DesktopId, RequestedAccuracyLevel, Start, Stop and
LocationUpdated; Location objects), served on the bus in DBUS_SYSTEM_BUS_ADDRESS, with
updates scripted by a fixture. The real GeoClue 2.6 runs in GeoClueTests; this one stages
what the real one cannot be made to do: odd timestamps, an unreadable update, a spoofer, a
Stop that never answers.

    /usr/bin/python3 geoclue.py FIXTURE.json LOG

Prints "ready" once it owns org.freedesktop.GeoClue2, and appends one line per method call
to LOG ("GetClient", "Start", "Stop").

Fixture: {"stop_hangs": bool (Stop never answers), "no_agent": "getclient" | "start" (as
GeoClue without an agent for the user: 2.6 never answers GetClient; 2.8 fails Start with
AccessDenied "no agent for UID" after "start_delay_ms"), "updates": [update]}, sent in order after
Start, where an update is {"after_ms": delay since the previous one, "kind": "location" |
"unreadable" (a Location path that does not exist) | "spoof" (sent from another connection
on the bus, naming a readable Location object with the update's position), "latitude",
"longitude", "accuracy", "timestamp": [seconds, microseconds]}.
"""
import asyncio
import json
import os
import sys

from dbus_next import Message
from dbus_next.aio import MessageBus
from dbus_next.constants import PropertyAccess
from dbus_next.errors import DBusError
from dbus_next.service import ServiceInterface, dbus_property, method, signal

ROOT = "/org/freedesktop/GeoClue2"
CLIENT_INTERFACE = "org.freedesktop.GeoClue2.Client"
LOG = None


def log(line):
    with open(LOG, "a") as handle:
        handle.write(line + "\n")


class Location(ServiceInterface):
    def __init__(self, update):
        super().__init__("org.freedesktop.GeoClue2.Location")
        self.update = update
        # dbus_next reads every property once while exporting (for InterfacesAdded); reads
        # after that are a client's.
        self.exported = False

    @dbus_property(access=PropertyAccess.READ)
    def Latitude(self) -> "d":
        # Logged: a test sees that the client is reading this update.
        if self.exported:
            log("Read Latitude")
        return float(self.update["latitude"])

    @dbus_property(access=PropertyAccess.READ)
    def Longitude(self) -> "d":
        return float(self.update["longitude"])

    @dbus_property(access=PropertyAccess.READ)
    def Accuracy(self) -> "d":
        return float(self.update.get("accuracy", 25))

    @dbus_property(access=PropertyAccess.READ)
    def Altitude(self) -> "d":
        return -1.7976931348623157e308

    @dbus_property(access=PropertyAccess.READ)
    def Speed(self) -> "d":
        return -1.0

    @dbus_property(access=PropertyAccess.READ)
    def Heading(self) -> "d":
        return -1.0

    @dbus_property(access=PropertyAccess.READ)
    def Description(self) -> "s":
        return ""

    @dbus_property(access=PropertyAccess.READ)
    def Timestamp(self) -> "(tt)":
        return list(self.update.get("timestamp", [1700000000, 0]))


class Client(ServiceInterface):
    def __init__(self, service, path):
        super().__init__(CLIENT_INTERFACE)
        self.service = service
        self.path = path
        self.location = "/"
        self.desktop_id = ""
        self.level = 0
        self.task = None

    @dbus_property()
    def DesktopId(self) -> "s":
        return self.desktop_id

    @DesktopId.setter
    def DesktopId(self, value: "s"):
        self.desktop_id = value

    @dbus_property()
    def RequestedAccuracyLevel(self) -> "u":
        return self.level

    @RequestedAccuracyLevel.setter
    def RequestedAccuracyLevel(self, value: "u"):
        self.level = value

    @dbus_property(access=PropertyAccess.READ)
    def Location(self) -> "o":
        return self.location

    @dbus_property(access=PropertyAccess.READ)
    def Active(self) -> "b":
        return self.task is not None

    @method()
    async def Start(self):
        log("Start")
        if self.service.fixture.get("no_agent") == "start":
            await asyncio.sleep(self.service.fixture.get("start_delay_ms", 0) / 1000)
            raise DBusError("org.freedesktop.DBus.Error.AccessDenied",
                            "'%s' disallowed, no agent for UID %d" % (self.desktop_id, os.getuid()))
        self.task = asyncio.get_running_loop().create_task(self.send_updates())

    @method()
    async def Stop(self):
        log("Stop")
        if self.task is not None:
            self.task.cancel()
        if self.service.fixture.get("stop_hangs"):
            await asyncio.Event().wait()

    @signal()
    def LocationUpdated(self, old, new) -> "oo":
        return [old, new]

    async def send_updates(self):
        for update in self.service.fixture.get("updates", []):
            await asyncio.sleep(update.get("after_ms", 0) / 1000)
            kind = update.get("kind", "location")
            if kind == "unreadable":
                self.LocationUpdated(self.location, ROOT + "/Location/missing")
                continue
            path = self.service.export_location(update)
            if kind == "spoof":
                await self.service.spoofer.send(Message.new_signal(
                    self.path, CLIENT_INTERFACE, "LocationUpdated", "oo", [self.location, path]))
                continue
            old, self.location = self.location, path
            self.LocationUpdated(old, path)


class Manager(ServiceInterface):
    def __init__(self, service):
        super().__init__("org.freedesktop.GeoClue2.Manager")
        self.service = service

    @method()
    async def GetClient(self) -> "o":
        log("GetClient")
        if self.service.fixture.get("no_agent") == "getclient":
            await asyncio.Event().wait()
        return self.service.new_client()


class Service:
    def __init__(self, bus, spoofer, fixture):
        self.bus = bus
        self.spoofer = spoofer
        self.fixture = fixture
        self.clients = 0
        self.locations = 0
        bus.export(ROOT + "/Manager", Manager(self))

    def new_client(self):
        self.clients += 1
        path = "%s/Client/%d" % (ROOT, self.clients)
        self.bus.export(path, Client(self, path))
        return path

    def export_location(self, update):
        self.locations += 1
        path = "%s/Location/%d" % (ROOT, self.locations)
        location = Location(update)
        self.bus.export(path, location)
        location.exported = True
        return path


async def main():
    global LOG
    fixture_path, LOG = sys.argv[1], sys.argv[2]
    with open(fixture_path) as handle:
        fixture = json.load(handle)
    address = os.environ["DBUS_SYSTEM_BUS_ADDRESS"]
    bus = await MessageBus(bus_address=address).connect()
    spoofer = await MessageBus(bus_address=address).connect()
    Service(bus, spoofer, fixture)
    await bus.request_name("org.freedesktop.GeoClue2")
    print("ready", flush=True)
    await bus.wait_for_disconnect()


asyncio.run(main())
