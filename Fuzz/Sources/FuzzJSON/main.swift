import FuzzSupport
import HereWeatherCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `JSONValue.parse` (JSONValueParser), which every service's body goes through. A parsed
/// document has only finite numbers, and writing it with the output writer (`JSONOutput`)
/// gives JSON that parses again and writes back to the same text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let value = try? JSONValue.parse(FuzzInput(data, size).data) else { return 0 }
    let text = output(value).serialized()
    guard let again = try? JSONValue.parse(Data(text.utf8)) else {
        require(false, "the writer's text does not parse: \(text)")
        return 0
    }
    require(output(again).serialized() == text, "writing is not stable: \(text)")
    return 0
}

/// `value` for the output writer, with object keys sorted so that the text is deterministic.
func output(_ value: JSONValue) -> JSONOutput {
    switch value {
    case .null: return .null
    case .bool(let flag): return .bool(flag)
    case .number(let number):
        require(number.isFinite, "the parser returned the number \(number)")
        return .number(number)
    case .string(let text): return .string(text)
    case .array(let elements): return .array(elements.map(output))
    case .object(let members): return .object(members.sorted { $0.key < $1.key }.map { ($0.key, output($0.value)) })
    }
}
