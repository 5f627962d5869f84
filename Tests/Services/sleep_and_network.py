#!/usr/bin/python3
"""logind's and NetworkManager's signals for `--follow` tests, played on the bus in
DBUS_SYSTEM_BUS_ADDRESS (python3-dbus-next):

- org.freedesktop.login1 on /org/freedesktop/login1, interface
  org.freedesktop.login1.Manager: the signal PrepareForSleep(b), as logind sends it
  before a suspend (true) and after the resume (false);
- org.freedesktop.NetworkManager on /org/freedesktop/NetworkManager: the properties
  State (u), Connectivity (u) and PrimaryConnection (o), as NetworkManager's documented
  interface has them, announced in org.freedesktop.DBus.Properties.PropertiesChanged.

The test drives it through /org/hereweather/Test, interface org.hereweather.Test:
Sleep(b) sends PrepareForSleep; Network(u state, u connectivity, o primary) sets the three
properties and announces those that changed in one PropertiesChanged.

    /usr/bin/python3 sleep_and_network.py STATE CONNECTIVITY

Prints "ready" once it owns both names, and "asked" each time a client reads
NetworkManager's properties with GetAll (`--follow` does once it has subscribed to both).
"""
import asyncio
import os
import sys

from dbus_next.aio import MessageBus
from dbus_next.constants import PropertyAccess
from dbus_next.service import ServiceInterface, dbus_property, method, signal


class Login(ServiceInterface):
    def __init__(self):
        super().__init__("org.freedesktop.login1.Manager")

    @signal()
    def PrepareForSleep(self, starting) -> "b":
        return starting


class NetworkManager(ServiceInterface):
    def __init__(self, state, connectivity):
        super().__init__("org.freedesktop.NetworkManager")
        self.values = {"State": state, "Connectivity": connectivity,
                       "PrimaryConnection": "/org/freedesktop/NetworkManager/ActiveConnection/1"}

    @dbus_property(access=PropertyAccess.READ)
    def State(self) -> "u":
        return self.values["State"]

    @dbus_property(access=PropertyAccess.READ)
    def Connectivity(self) -> "u":
        return self.values["Connectivity"]

    @dbus_property(access=PropertyAccess.READ)
    def PrimaryConnection(self) -> "o":
        return self.values["PrimaryConnection"]

    def set(self, values):
        changed = {key: value for key, value in values.items() if self.values[key] != value}
        self.values.update(changed)
        if changed:
            self.emit_properties_changed(changed)


class Control(ServiceInterface):
    def __init__(self, login, network):
        super().__init__("org.hereweather.Test")
        self.login = login
        self.network = network

    @method()
    def Sleep(self, starting: "b"):
        self.login.PrepareForSleep(starting)

    @method()
    def Network(self, state: "u", connectivity: "u", primary: "o"):
        self.network.set({"State": state, "Connectivity": connectivity, "PrimaryConnection": primary})


async def main():
    state, connectivity = int(sys.argv[1]), int(sys.argv[2])
    bus = await MessageBus(bus_address=os.environ["DBUS_SYSTEM_BUS_ADDRESS"]).connect()
    login, network = Login(), NetworkManager(state, connectivity)
    bus.export("/org/freedesktop/login1", login)
    bus.export("/org/freedesktop/NetworkManager", network)
    bus.export("/org/hereweather/Test", Control(login, network))

    def observe(message):
        if message.member == "GetAll" and message.path == "/org/freedesktop/NetworkManager":
            print("asked", flush=True)
        return None

    bus.add_message_handler(observe)
    await bus.request_name("org.freedesktop.login1")
    await bus.request_name("org.freedesktop.NetworkManager")
    print("ready", flush=True)
    await bus.wait_for_disconnect()


asyncio.run(main())
