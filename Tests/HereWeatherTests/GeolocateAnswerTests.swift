import Foundation
import Testing
@testable import HereWeatherCore

/// What a geolocate answer must hold to be taken (issue 25 item 12): a position on the globe
/// and an accuracy that is a JSON number, positive and within half the Earth's circumference.
/// `1e308` was accepted (and remembered for the neighbourhood), and so was `"42"`, a string.
@Suite struct GeolocateAnswerTests {
    func read(accuracy: String) -> Result<(Coordinate, Double), WiFiError> {
        let body = #"{"location": {"lat": 52.52437, "lng": 13.41053}, "accuracy": \#(accuracy)}"#
        return WiFiGeolocateExchange.read(HTTPResponse(status: 200, body: Data(body.utf8)), host: "geo.example", secrets: [])
    }

    @Test(arguments: ["1e308", "2.1e7", #""42""#, "0", "-5", "null", "[42]", "true"])
    func anAbsurdOrNonNumericAccuracyIsRefused(accuracy: String) {
        guard case .failure(let error) = read(accuracy: accuracy) else {
            Issue.record("accuracy \(accuracy) was taken")
            return
        }
        #expect(error == .serviceFailed(host: "geo.example", reason: "the answer holds no usable position and accuracy"))
    }

    @Test(arguments: [("42", 42.0), ("0.5", 0.5), ("150000", 150_000.0), ("20000000", 20_000_000.0)])
    func aNumberWithinReasonIsTaken(accuracy: String, metres: Double) throws {
        let (coordinate, taken) = try read(accuracy: accuracy).get()
        #expect(coordinate == Coordinate(latitude: 52.52437, longitude: 13.41053))
        #expect(taken == metres)
    }
}
