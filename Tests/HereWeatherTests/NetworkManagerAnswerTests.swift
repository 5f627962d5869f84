import Foundation
import HereWeatherCore
import HereWeatherDBus
@testable import HereWeatherWiFi
import Testing

/// What the scanner makes of NetworkManager's answers (issue 25, items 3 and 12a), in-process
/// against the NetworkManager stand-in on a private bus: the point is the scanner's logic.
@Suite struct NetworkManagerAnswerTests {
    /// GetAllAccessPoints answering `as` (strings) where NetworkManager documents `ao`: not
    /// "0 usable of 0 seen" (a claim that nothing is around), but what happened.
    @Test func aListOfTheWrongTypeIsSaidAsSuch() async throws {
        let service = try await NetworkManagerService.started(fixture: "list-as-strings.json")
        defer { service.stop() }
        do {
            let found = try await NetworkManagerScanner(address: service.address).accessPoints(deadline: .now + .seconds(30))
            Issue.record("read \(found.count) access points from a list of the wrong type")
        } catch let error as WiFiError {
            #expect(error.message.contains("NetworkManager answered GetAllAccessPoints with a value of type `as`, not a list of object paths (`ao`)"),
                    "\(error.message)")
            #expect(!error.message.contains("usable"))
            #expect(!error.message.contains("\n"))
        }
    }

    /// Every access point's read refused: said, not taken for "no access points around".
    @Test func readsThatAllFailAreSaid() async throws {
        let service = try await NetworkManagerService.started(fixture: "reads-refused.json")
        defer { service.stop() }
        do {
            let found = try await NetworkManagerScanner(address: service.address).accessPoints(deadline: .now + .seconds(30))
            Issue.record("read \(found.count) access points from refused reads")
        } catch let error as WiFiError {
            #expect(error.message.contains("NetworkManager listed 5 access points, and 5 of them could not be read"), "\(error.message)")
            #expect(error.message.contains("Reading access points is refused"), "\(error.message)")
        }
    }

    /// 300 access points, the strongest listed last, from a NetworkManager without an
    /// ObjectManager: all are read in batches (the old one-call-each read lost those beyond
    /// dbus-daemon's 128 pending replies, the strongest among them).
    @Test func everyAccessPointOfACrowdIsRead() async throws {
        let service = try await NetworkManagerService.started(fixture: "crowd-300.json")
        defer { service.stop() }
        let found = try await NetworkManagerScanner(address: service.address).accessPoints(deadline: .now + .seconds(60))
        #expect(found.count == 301)
        let selection = WiFiSelection(found)
        #expect(selection.used.first?.macAddress == "f4:94:5f:76:4b:73", "the strongest of all is sent first")
        #expect(selection.used.count == WiFiSelection.maximumSent)
    }

    /// 10,000 access points from a NetworkManager with an ObjectManager (1.22 and later):
    /// one answer holds them all, the strongest (listed last) among them.
    @Test func aCrowdOfTenThousandIsReadInOneAnswer() async throws {
        let service = try await NetworkManagerService.started(fixture: "crowd-10000.json")
        defer { service.stop() }
        let found = try await NetworkManagerScanner(address: service.address).accessPoints(deadline: .now + .seconds(60))
        #expect(found.count == 10_001)
        #expect(WiFiSelection(found).used.first?.macAddress == "f4:94:5f:76:4b:73")
        #expect(service.calls.contains("GetManagedObjects"))
    }

    /// Issue 35 E34: an ObjectManager whose answer lists none of the access points that
    /// GetAllAccessPoints gave (only the devices): each is read one by one (GetAll), not
    /// taken for "0 seen" or for 12 that could not be read.
    @Test func accessPointsTheObjectManagerLeavesOutAreReadOneByOne() async throws {
        let service = try await NetworkManagerService.started(fixture: "object-manager-without-access-points.json")
        defer { service.stop() }
        let found = try await NetworkManagerScanner(address: service.address).accessPoints(deadline: .now + .seconds(30))
        #expect(found.count == 12)
        #expect(found.contains { $0.macAddress.lowercased() == "f4:94:5f:76:4b:73" && $0.strength == 82 }, "\(found)")
        #expect(service.calls.contains("GetManagedObjects"), "the ObjectManager was asked first")
    }

    @Test func valuesOutsideTheirRangesAreClamped() {
        let properties: [String: DBusValue] = ["HwAddress": .string("F4:94:5F:76:4B:73"), "Strength": .int64(.max),
                                               "Frequency": .int64(.min), "LastSeen": .int64(.max)]
        let accessPoint = NetworkManagerValues.accessPoint(properties, bootSeconds: 100)
        #expect(accessPoint?.strength == 100)
        #expect(accessPoint?.frequency == 0)
        #expect(accessPoint?.age == 0, "seen in the future: seen now")
        #expect(NetworkManagerValues.accessPoint(properties, bootSeconds: .infinity)?.age == nil)
        #expect(NetworkManagerValues.accessPoint(["HwAddress": .uint32(1)], bootSeconds: 100) == nil)
    }
}
