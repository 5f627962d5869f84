import Foundation
import Testing
@testable import HereWeatherCore

/// The privacy rule for what Wi-Fi positioning may send, and the body it sends.
@Suite struct WiFiSelectionTests {
    func point(_ mac: String, _ ssid: String?, strength: Int = 50, age: Int? = 1000) -> AccessPoint {
        AccessPoint(macAddress: mac, ssid: Array((ssid ?? "").utf8), strength: strength, frequency: 2412, age: age)
    }

    @Test func dropsHiddenOptedOutRandomisedAndNeverSeenAccessPoints() {
        let selection = WiFiSelection([
            point("F4:94:5F:76:4B:73", "Cafe"),
            point("74:42:24:6d:96:0f", "Cafe 5G"),
            point("8c:07:8d:4b:2b:86", nil),                 // hidden
            point("8c:07:8d:4b:2b:87", "\0\0\0"),            // hidden, as zero bytes
            point("10:20:30:40:50:60", "Anna's home_nomap"), // opted out
            point("10:20:30:40:50:61", "FLAT_NoMap"),        // opted out, any case
            point("da:a1:19:00:00:01", "Pixel Hotspot"),     // randomised: 0xda has bit 0x02
            point("01:00:5e:00:00:01", "multicast"),         // multicast bit
            point("not-a-mac", "Broken"),
            point("00:11:22:33:44:55", "Gone", age: nil),    // never seen
        ])
        #expect(selection.used.map(\.macAddress) == ["74:42:24:6d:96:0f", "f4:94:5f:76:4b:73"].sorted())
        #expect(selection.used.allSatisfy { $0.ssid.isEmpty }, "no SSID is kept past the selection")
        #expect(selection.hidden == 2)
        #expect(selection.optedOut == 2)
        #expect(selection.randomised == 1)
        #expect(selection.unusable == 3)
        #expect(selection.isEnough)
    }

    /// Issue 25 item 9: signs passed `UInt8(_:radix:)` and were sent as written; a NUL, a
    /// space or a zero-width space after `_nomap` hid the opt-out.
    @Test(arguments: ["+4:94:5f:76:4b:73", "-0:+0:+0:+0:+0:+1", "f4:94:5f:76:4b:7", "f4:94:5f:76:4b:733", "0x:94:5f:76:4b:73",
                      "f4:94:5f:76:4b:73:", " f4:94:5f:76:4b:73", "f4:94:5f:76:4b:7\u{0663}", "f4-94-5f-76-4b-73"])
    func aMACIsExactlySixTwoDigitHexOctets(mac: String) {
        #expect(point(mac, "Cafe").normalisedMAC == nil)
        let selection = WiFiSelection([point(mac, "Cafe"), point("74:42:24:6d:96:0f", "Cafe 5G")])
        #expect(selection.used.map(\.macAddress) == ["74:42:24:6d:96:0f"])
        #expect(selection.unusable == 1)
        #expect(!WiFiGeolocateExchange.body(selection.used).contains(mac))
    }

    @Test(arguments: ["Home_nomap\0", "Home_nomap ", "Café_nomap\u{200B}", "Home_NoMaP\0\0\t", "x_nomap\u{FEFF}\u{00A0}\n"])
    func aPaddedNomapIsOptedOut(ssid: String) {
        let selection = WiFiSelection([point("f4:94:5f:76:4b:73", ssid), point("74:42:24:6d:96:0f", "Cafe 5G"),
                                       point("74:42:24:6d:96:10", "Cafe_nomap_guest")])
        #expect(selection.optedOut == 1, "\(ssid.unicodeScalars.map(\.value))")
        #expect(selection.used.map(\.macAddress) == ["74:42:24:6d:96:0f", "74:42:24:6d:96:10"])
    }

    @Test func keepsTheTwentyStrongestOnceEach() {
        var points = (0..<40).map { index in
            point(String(format: "00:1b:2c:00:00:%02x", index), "Office \(index)", strength: index * 2)
        }
        points.append(point("00:1B:2C:00:00:27", "Office 39 again", strength: 10))   // the same AP, weaker, upper case
        let selection = WiFiSelection(points)
        #expect(selection.used.count == WiFiSelection.maximumSent)
        #expect(selection.used.first?.strength == 78)
        #expect(selection.used.last?.strength == 40)
        #expect(selection.beyondLimit == 20)
        #expect(Set(selection.used.map(\.macAddress)).count == 20)
    }

    @Test func fewerThanTwoIsNotEnoughAndSaysWhy() {
        let selection = WiFiSelection([point("00:11:22:33:44:55", "Farm"), point("00:11:22:33:44:56", nil),
                                       point("62:11:22:33:44:57", "Galaxy")])
        #expect(!selection.isEnough)
        #expect(selection.summary == "1 usable of 3 seen (1 hidden, 1 with a randomised address)")
    }

    @Test func percentBecomesDBmAsNetworkManagerMapsIt() {
        // nm_wifi_utils_level_to_quality: -40 dBm and above is 100 %, -100 dBm and below 0 %.
        #expect(point("00:11:22:33:44:55", "a", strength: 100).signalStrength == -40)
        #expect(point("00:11:22:33:44:55", "a", strength: 0).signalStrength == -100)
        #expect(point("00:11:22:33:44:55", "a", strength: 50).signalStrength == -70)
        #expect(point("00:11:22:33:44:55", "a", strength: 255).signalStrength == -40)
    }

    @Test func theBodyHoldsNoSSIDAndTheLoggedBodyMasksTheAddresses() throws {
        let selection = WiFiSelection([point("F4:94:5F:76:4B:73", "Kiez-Cafe", strength: 82, age: 3000),
                                       point("74:42:24:6d:96:0f", "Kiez-Cafe", strength: 74, age: 2000)])
        let body = WiFiGeolocateExchange.body(selection.used)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        #expect(json["considerIp"] as? Bool == false)
        let sent = try #require(json["wifiAccessPoints"] as? [[String: Any]])
        #expect(sent.count == 2)
        #expect(Set(sent[0].keys) == ["macAddress", "signalStrength", "frequency", "age"])
        #expect(sent[0]["macAddress"] as? String == "f4:94:5f:76:4b:73")
        #expect(sent[0]["signalStrength"] as? Int == -51)
        #expect(sent[0]["age"] as? Int == 3000)
        #expect(!body.contains("Kiez"))
        let masked = WiFiGeolocateExchange.maskedBody(selection.used)
        #expect(masked.contains("f4:94:5f:xx:xx:xx"))
        #expect(!masked.contains("76:4b:73"))
    }

    @Test func theSameNeighbourhoodIsAtLeastHalfSharedAndTwoAccessPoints() {
        let home: Set = ["a", "b", "c", "d", "e", "f"]
        #expect(WiFiNeighbourhoodMemory.isSameNeighbourhood(home, home))
        #expect(WiFiNeighbourhoodMemory.isSameNeighbourhood(["a", "b", "c", "d", "x", "y"], home), "4 of 8")
        #expect(!WiFiNeighbourhoodMemory.isSameNeighbourhood(["a", "b", "x", "y", "z", "w"], home), "2 of 10")
        #expect(!WiFiNeighbourhoodMemory.isSameNeighbourhood(["a"], ["a"]), "one shared access point is not enough")
    }
}
