#!/usr/bin/python3
"""A GeoClue2 stand-in for tests: the parts of GeoClue's documented D-Bus interface a client
uses (Manager.GetClient; a Client's DesktopId, RequestedAccuracyLevel, Start, Stop and
LocationUpdated; Location objects), served on the bus in DBUS_SYSTEM_BUS_ADDRESS, with
updates scripted by a fixture. The real GeoClue 2.6 runs in GeoClueTests; this one stages
what the real one cannot be made to do: odd timestamps, an unreadable update, a spoofer, a
Stop that never answers.

    /usr/bin/python3 geoclue.py FIXTURE.json LOG

Prints "ready" once it owns org.freedesktop.GeoClue2, and appends one line per method call
to LOG ("GetClient", "Start", "Stop"), and one per threshold a client sets ("DistanceThreshold
1000", "TimeThreshold 0").

A test moves it with a method of its own, on /org/freedesktop/GeoClue2/StandIn (interface
org.freedesktop.GeoClue2.StandIn, not GeoClue's): Move(latitude d, longitude d, accuracy d)
sends every started client a LocationUpdated naming a new Location object there, and answers
how many clients it told. MoveTwice(latitude, longitude, accuracy, then_latitude,
then_longitude, then_accuracy) does the same, and moves each client again as it reads the
first position: the second LocationUpdated reaches the client before the answer to its read.

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
    def __init__(self, update, on_read=None):
        super().__init__("org.freedesktop.GeoClue2.Location")
        self.update = update
        self.on_read = on_read
        # dbus_next reads every property once while exporting (for InterfacesAdded); reads
        # after that are a client's.
        self.exported = False

    @dbus_property(access=PropertyAccess.READ)
    def Latitude(self) -> "d":
        # Logged: a test sees that the client is reading this update.
        if self.exported:
            log("Read Latitude")
            if self.on_read is not None:
                on_read, self.on_read = self.on_read, None
                on_read()
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
        self.distance_threshold = 0
        self.time_threshold = 0
        self.started = False
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

    @dbus_property()
    def DistanceThreshold(self) -> "u":
        return self.distance_threshold

    @DistanceThreshold.setter
    def DistanceThreshold(self, value: "u"):
        log("DistanceThreshold %d" % value)
        self.distance_threshold = value

    @dbus_property()
    def TimeThreshold(self) -> "u":
        return self.time_threshold

    @TimeThreshold.setter
    def TimeThreshold(self, value: "u"):
        log("TimeThreshold %d" % value)
        self.time_threshold = value

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
        self.started = True
        self.task = asyncio.get_running_loop().create_task(self.send_updates())

    @method()
    async def Stop(self):
        log("Stop")
        self.started = False
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
            self.move_to(path)

    def move_to(self, path):
        old, self.location = self.location, path
        self.LocationUpdated(old, path)


class StandIn(ServiceInterface):
    """The test's handle on the stand-in: not part of GeoClue."""

    def __init__(self, service):
        super().__init__("org.freedesktop.GeoClue2.StandIn")
        self.service = service

    @method()
    def Move(self, latitude: "d", longitude: "d", accuracy: "d") -> "u":
        log("Move")
        told = 0
        for client in self.service.client_objects:
            if client.started:
                client.move_to(self.service.export_location(
                    {"latitude": latitude, "longitude": longitude, "accuracy": accuracy}))
                told += 1
        return told

    @method()
    def MoveTwice(self, latitude: "d", longitude: "d", accuracy: "d",
                  then_latitude: "d", then_longitude: "d", then_accuracy: "d") -> "u":
        log("MoveTwice")
        told = 0
        for client in self.service.client_objects:
            if client.started:
                then = {"latitude": then_latitude, "longitude": then_longitude, "accuracy": then_accuracy}
                client.move_to(self.service.export_location(
                    {"latitude": latitude, "longitude": longitude, "accuracy": accuracy},
                    on_read=lambda client=client: client.move_to(self.service.export_location(then))))
                told += 1
        return told


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
        self.client_objects = []
        self.locations = 0
        bus.export(ROOT + "/Manager", Manager(self))
        bus.export(ROOT + "/StandIn", StandIn(self))

    def new_client(self):
        self.clients += 1
        path = "%s/Client/%d" % (ROOT, self.clients)
        client = Client(self, path)
        self.client_objects.append(client)
        self.bus.export(path, client)
        return path

    def export_location(self, update, on_read=None):
        self.locations += 1
        path = "%s/Location/%d" % (ROOT, self.locations)
        location = Location(update, on_read)
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
