#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FuzzSupport
import HereWeatherCore
import HereWeatherDBus
import HereWeatherWiFi

/// NetworkManager's and GeoClue's answers as decoded from D-Bus values: an access point from
/// its properties (and the selection of what may be sent), a list of access points read in a
/// batch, GeoClue's Location object.
///
/// The first byte chooses the decoder (modulo 3) and the integer type whole numbers take (the
/// byte divided by 3, modulo 8: y n q i u x t, or d); the rest is JSON mapped onto D-Bus
/// values (`value(_:)`), so the seeds are the NetworkManager stand-in's fixtures and GeoClue
/// property sets. An access point must have a strength of 0-100 %, a frequency and age that
/// are not negative, and a selection of at most 20 well-formed addresses; a GeoClue fix must
/// be on the globe with a finite, positive accuracy; errors must be one line.
enum Decoder: CaseIterable { case accessPoint, accessPointList, geoClueLocation }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let first = input.bytes.first, let (decoder, body) = input.split(choosingFrom: Decoder.allCases),
          let json = try? JSONValue.parse(body) else { return 0 }
    let integers = Int(first) / Decoder.allCases.count % 8
    let value = DBusValueMapping(integerType: integers).value(json)
    switch decoder {
    case .accessPoint:
        guard let properties = value.dictionary else { return 0 }
        checkAccessPoints([NetworkManagerValues.accessPoint(properties.mapValues(\.unwrapped), bootSeconds: 86_400)].compactMap { $0 })
    case .accessPointList:
        let replies: [Result<[DBusValue], DBusError>] = (value.array ?? [value]).map { .success([$0]) }
        do {
            checkAccessPoints(try NetworkManagerValues.accessPoints(from: replies, bootSeconds: 86_400))
        } catch {
            ErrorChecks.check(error)
        }
        do {
            _ = try NetworkManagerValues.objectPaths([value], of: "GetAllAccessPoints")
        } catch {
            ErrorChecks.check(error)
        }
    case .geoClueLocation:
        guard let properties = value.dictionary,
              let location = GeoClueLocationProvider.location(from: properties.mapValues(\.unwrapped), arrivedAt: Date()) else { return 0 }
        LocationChecks.check(location)
        requireFinite(location.receiverTime?.timeIntervalSince1970, "GeoClue's timestamp")
    }
    return 0
}

func checkAccessPoints(_ accessPoints: [AccessPoint]) {
    for accessPoint in accessPoints {
        require((0...100).contains(accessPoint.strength), "strength \(accessPoint.strength)")
        require(accessPoint.frequency >= 0, "frequency \(accessPoint.frequency)")
        require((accessPoint.age ?? 0) >= 0, "age \(accessPoint.age ?? 0)")
    }
    let selection = WiFiSelection(accessPoints)
    require(selection.used.count <= WiFiSelection.maximumSent, "\(selection.used.count) sent")
    for used in selection.used {
        require(used.normalisedMAC == used.macAddress, "a MAC sent as \(used.macAddress)")
        require(used.ssid.isEmpty, "an SSID kept for sending")
    }
    requirePlainText(selection.summary, "the summary")
}

/// JSON onto D-Bus values: objects become `a{sv}` dictionaries (values in variants), whole
/// numbers the chosen integer type (wrapping), other numbers doubles, strings that start with
/// "/" object paths, arrays of two whole numbers `(tt)` structures (GeoClue's Timestamp),
/// arrays of whole numbers 0-255 byte arrays (an SSID), other arrays arrays.
struct DBusValueMapping {
    var integerType: Int

    func value(_ json: JSONValue) -> DBusValue {
        switch json {
        case .object(let members):
            return .dictionary(members.mapValues { DBusValue.variant(value($0)) })
        case .array(let items):
            let whole = items.compactMap { item -> Int64? in if case .number(let number) = item { return Self.whole(number) }; return nil }
            if items.count == 2, whole.count == 2 {
                return .structure(whole.map { .uint64(UInt64(bitPattern: $0)) })
            }
            if !items.isEmpty, whole.count == items.count, whole.allSatisfy({ (0...255).contains($0) }) {
                return .array(whole.map { .byte(UInt8($0)) })
            }
            return .array(items.map(value))
        case .string(let text):
            return text.hasPrefix("/") ? .objectPath(text) : .string(text)
        case .bool(let flag):
            return .bool(flag)
        case .number(let number):
            guard let whole = Self.whole(number) else { return .double(number) }
            switch integerType {
            case 0: return .byte(UInt8(truncatingIfNeeded: whole))
            case 1: return .int16(Int16(truncatingIfNeeded: whole))
            case 2: return .uint16(UInt16(truncatingIfNeeded: whole))
            case 3: return .int32(Int32(truncatingIfNeeded: whole))
            case 4: return .uint32(UInt32(truncatingIfNeeded: whole))
            case 5: return .int64(whole)
            case 6: return .uint64(UInt64(bitPattern: whole))
            default: return .double(number)
            }
        case .null:
            return .string("")
        }
    }

    static func whole(_ number: Double) -> Int64? {
        number.rounded() == number ? Int64(exactly: number) : nil
    }
}
