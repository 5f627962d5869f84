#!/usr/bin/python3
"""A NetworkManager stand-in for tests: NetworkManager's documented D-Bus interfaces
(network-manager-dev's introspection XML, /usr/share/dbus-1/interfaces), the parts a
Wi-Fi positioning client reads, served on the bus in DBUS_SYSTEM_BUS_ADDRESS from a
recorded scan list (Fixtures/wifi/*.json). With "hang": true at the top, GetDevices
never answers (a hung NetworkManager).

    /usr/bin/python3 network_manager.py FIXTURE.json LOG

Prints "ready" once it owns org.freedesktop.NetworkManager. Appends one line per method
call to LOG ("GetDevices", "RequestScan /org/.../Devices/2 {}"), so a test can see what was
asked.

Fixture: {"wireless_enabled": bool, "hardware_enabled": bool, "refuse_access_point_reads": bool
(the generated access points' properties answer AccessDenied), "object_manager": bool
(GetManagedObjects on /org/freedesktop answers every access point's properties, as
NetworkManager's ObjectManager does; without it, as for an older NetworkManager, the call
fails with UnknownMethod), "object_manager_without_access_points": bool (GetManagedObjects
answers, but without the access points GetAllAccessPoints names: only the devices),
"devices": [device]}, where
a device is {"interface", "type" (2 = Wi-Fi), "access_points": [ap], "last_scan_age_s",
"after_scan": [ap] (the list a RequestScan yields), "scan_ms" (how long a scan takes;
absent: it never finishes), "scan_hangs" (RequestScan never answers),
"generated_access_points" (that many more access points, weak (1-60 %), before the listed
ones: a crowded place), "list_as_strings" (GetAllAccessPoints answers `as`, not `ao`)} and an access point is {"bssid", "ssid" (text, or null for
hidden), "strength" (percent), "frequency" (MHz), "age_s" (seconds since last seen, or
null for never)}. LastSeen and LastScan are on CLOCK_BOOTTIME, as NetworkManager's are.
"""
import asyncio
import json
import os
import sys
import time

from dbus_next import Message, Variant
from dbus_next.aio import MessageBus
from dbus_next.constants import PropertyAccess
from dbus_next.service import ServiceInterface, dbus_property, method, signal

ROOT = "/org/freedesktop/NetworkManager"
LOG = None


def log(line):
    with open(LOG, "a") as handle:
        handle.write(line + "\n")


def boottime():
    return time.clock_gettime(time.CLOCK_BOOTTIME)


class AccessPoint(ServiceInterface):
    def __init__(self, record):
        super().__init__("org.freedesktop.NetworkManager.AccessPoint")
        self.record = record
        now = boottime()
        age = record.get("age_s")
        # Clamped at boot: a machine up for less than `age` has seen nothing that long ago.
        self.last_seen = -1 if age is None else max(0, int(now - age))

    @dbus_property(access=PropertyAccess.READ)
    def Flags(self) -> "u":
        return 1

    @dbus_property(access=PropertyAccess.READ)
    def WpaFlags(self) -> "u":
        return 0

    @dbus_property(access=PropertyAccess.READ)
    def RsnFlags(self) -> "u":
        return 392

    @dbus_property(access=PropertyAccess.READ)
    def Ssid(self) -> "ay":
        ssid = self.record.get("ssid")
        return b"" if ssid is None else ssid.encode("utf-8")

    @dbus_property(access=PropertyAccess.READ)
    def Frequency(self) -> "u":
        return self.record["frequency"]

    @dbus_property(access=PropertyAccess.READ)
    def HwAddress(self) -> "s":
        return self.record["bssid"]

    @dbus_property(access=PropertyAccess.READ)
    def Mode(self) -> "u":
        return 2

    @dbus_property(access=PropertyAccess.READ)
    def MaxBitrate(self) -> "u":
        return 270000

    @dbus_property(access=PropertyAccess.READ)
    def Strength(self) -> "y":
        return self.record["strength"]

    @dbus_property(access=PropertyAccess.READ)
    def LastSeen(self) -> "i":
        return self.last_seen


def generated(count):
    """`count` weak access points with distinct, globally administered unicast addresses."""
    return [{"bssid": "00:1b:%02X:%02X:%02X:01" % ((n >> 16) & 0xFF, (n >> 8) & 0xFF, n & 0xFF),
             "ssid": "crowd-%d" % n, "strength": 1 + n % 60, "frequency": 2412 + 5 * (n % 13), "age_s": 5}
            for n in range(count)]


class Device(ServiceInterface):
    def __init__(self, record):
        super().__init__("org.freedesktop.NetworkManager.Device")
        self.record = record

    @dbus_property(access=PropertyAccess.READ)
    def Interface(self) -> "s":
        return self.record["interface"]

    @dbus_property(access=PropertyAccess.READ)
    def DeviceType(self) -> "u":
        return self.record["type"]

    @dbus_property(access=PropertyAccess.READ)
    def State(self) -> "u":
        return 100 if self.record["type"] == 2 else 30

    @dbus_property(access=PropertyAccess.READ)
    def Managed(self) -> "b":
        return True


class Wireless(ServiceInterface):
    def __init__(self, service, path, record):
        super().__init__("org.freedesktop.NetworkManager.Device.Wireless")
        self.service = service
        self.path = path
        self.record = record
        self.paths = (service.generate_access_points(record.get("generated_access_points", 0))
                      + service.export_access_points(record.get("access_points", [])))
        age = record.get("last_scan_age_s")
        self.last_scan = -1 if age is None else max(0, int((boottime() - age) * 1000))
        self.scanning = False

    @method()
    def GetAccessPoints(self) -> "ao":
        log("GetAccessPoints " + self.path)
        return self.paths

    @method()
    def GetAllAccessPoints(self) -> "ao":
        log("GetAllAccessPoints " + self.path)
        return self.paths

    @method()
    async def RequestScan(self, options: "a{sv}"):
        log("RequestScan %s %s" % (self.path, json.dumps(sorted(options.keys()))))
        if self.record.get("scan_hangs"):
            await asyncio.Event().wait()
        if self.scanning:
            return
        self.scanning = True
        if "scan_ms" in self.record:
            asyncio.get_running_loop().call_later(self.record["scan_ms"] / 1000, self.finish_scan)

    def finish_scan(self):
        self.scanning = False
        if "after_scan" in self.record:
            self.paths = self.service.export_access_points(self.record["after_scan"])
        self.last_scan = int(boottime() * 1000)
        log("ScanDone " + self.path)
        self.emit_properties_changed({"AccessPoints": self.paths, "LastScan": self.last_scan})

    @dbus_property(access=PropertyAccess.READ)
    def HwAddress(self) -> "s":
        return "00:16:3e:00:00:01"

    @dbus_property(access=PropertyAccess.READ)
    def Mode(self) -> "u":
        return 2

    @dbus_property(access=PropertyAccess.READ)
    def AccessPoints(self) -> "ao":
        return self.paths

    @dbus_property(access=PropertyAccess.READ)
    def LastScan(self) -> "x":
        return self.last_scan

    @signal()
    def AccessPointAdded(self) -> "o":
        return "/"


class WirelessListingStrings(Wireless):
    """A Wireless device whose GetAllAccessPoints answers `as` (strings), not `ao`."""

    @method()
    def GetAllAccessPoints(self) -> "as":
        log("GetAllAccessPoints " + self.path)
        return self.paths


class NetworkManager(ServiceInterface):
    def __init__(self, bus, fixture):
        super().__init__("org.freedesktop.NetworkManager")
        self.bus = bus
        self.fixture = fixture
        self.next_access_point = 0
        self.generated = {}
        self.exported = {}
        bus.add_message_handler(self.answer_generated)
        self.devices = []
        for index, record in enumerate(fixture.get("devices", [])):
            path = "%s/Devices/%d" % (ROOT, index + 1)
            bus.export(path, Device(record))
            if record["type"] == 2:
                kind = WirelessListingStrings if record.get("list_as_strings") else Wireless
                bus.export(path, kind(self, path, record))
            self.devices.append(path)

    def generate_access_points(self, count):
        """`generated(count)`, answered by `answer_generated` (exporting ten thousand
        objects one by one takes dbus-next minutes)."""
        paths = []
        for record in generated(count):
            self.next_access_point += 1
            path = "%s/AccessPoint/%d" % (ROOT, self.next_access_point)
            self.generated[path] = AccessPoint(record)
            paths.append(path)
        return paths

    @staticmethod
    def properties(access_point):
        return {"HwAddress": Variant("s", access_point.HwAddress), "Ssid": Variant("ay", access_point.Ssid),
                "Strength": Variant("y", access_point.Strength), "Frequency": Variant("u", access_point.Frequency),
                "LastSeen": Variant("i", access_point.LastSeen), "Flags": Variant("u", 1), "Mode": Variant("u", 2)}

    def answer_generated(self, message):
        """Properties.Get and GetAll of a generated access point, as dbus-next would answer;
        ObjectManager.GetManagedObjects on /org/freedesktop when the fixture offers it."""
        if message.path == "/org/freedesktop" and message.member == "GetManagedObjects":
            if not self.fixture.get("object_manager"):
                return Message.new_error(message, "org.freedesktop.DBus.Error.UnknownMethod", "No such method")
            log("GetManagedObjects")
            interface = "org.freedesktop.NetworkManager.AccessPoint"
            objects = {path: {interface: self.properties(ap)} for path, ap in self.generated.items()}
            objects.update({path: {interface: self.properties(ap)} for path, ap in self.exported.items()})
            if self.fixture.get("object_manager_without_access_points"):
                objects = {path: {"org.freedesktop.NetworkManager.Device": {"DeviceType": Variant("u", 2)}}
                           for path in self.devices}
            return Message.new_method_return(message, "a{oa{sa{sv}}}", [objects])
        access_point = self.generated.get(message.path)
        if access_point is None or message.interface != "org.freedesktop.DBus.Properties":
            return None
        if self.fixture.get("refuse_access_point_reads"):
            return Message.new_error(message, "org.freedesktop.DBus.Error.AccessDenied", "Reading access points is refused")
        values = self.properties(access_point)
        if message.member == "GetAll":
            return Message.new_method_return(message, "a{sv}", [values])
        if message.member == "Get" and len(message.body) == 2 and message.body[1] in values:
            return Message.new_method_return(message, "v", [values[message.body[1]]])
        return None

    def export_access_points(self, records):
        paths = []
        for record in records:
            self.next_access_point += 1
            path = "%s/AccessPoint/%d" % (ROOT, self.next_access_point)
            self.exported[path] = AccessPoint(record)
            self.bus.export(path, self.exported[path])
            paths.append(path)
        return paths

    @method()
    async def GetDevices(self) -> "ao":
        log("GetDevices")
        if self.fixture.get("hang"):
            await asyncio.Event().wait()
        return self.devices

    @method()
    def GetAllDevices(self) -> "ao":
        log("GetAllDevices")
        return self.devices

    @dbus_property(access=PropertyAccess.READ)
    def Devices(self) -> "ao":
        return self.devices

    @dbus_property(access=PropertyAccess.READWRITE)
    def WirelessEnabled(self) -> "b":
        return self.fixture.get("wireless_enabled", True)

    @WirelessEnabled.setter
    def WirelessEnabled(self, value: "b"):
        self.fixture["wireless_enabled"] = value

    @dbus_property(access=PropertyAccess.READ)
    def WirelessHardwareEnabled(self) -> "b":
        return self.fixture.get("hardware_enabled", True)

    @dbus_property(access=PropertyAccess.READ)
    def Version(self) -> "s":
        return "1.42.4"

    @dbus_property(access=PropertyAccess.READ)
    def State(self) -> "u":
        return 70


async def main():
    global LOG
    fixture_path, LOG = sys.argv[1], sys.argv[2]
    with open(fixture_path) as handle:
        fixture = json.load(handle)
    bus = await MessageBus(bus_address=os.environ["DBUS_SYSTEM_BUS_ADDRESS"]).connect()
    bus.export(ROOT, NetworkManager(bus, fixture))
    await bus.request_name("org.freedesktop.NetworkManager")
    print("ready", flush=True)
    await bus.wait_for_disconnect()


asyncio.run(main())
