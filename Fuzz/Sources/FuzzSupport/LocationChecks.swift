#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HereWeatherCore

/// What must hold for any location a source returns: a position on the globe, a finite and
/// positive accuracy, and output that renders (the JSON as valid JSON).
public enum LocationChecks {
    public static func check(_ location: Location) {
        let coordinate = location.coordinate
        require((-90...90).contains(coordinate.latitude), "latitude \(coordinate.latitude)")
        require((-180...180).contains(coordinate.longitude), "longitude \(coordinate.longitude)")
        requireFinite(location.horizontalAccuracy, "the accuracy")
        require((location.horizontalAccuracy ?? 1) > 0, "accuracy \(location.horizontalAccuracy ?? 0)")
        requireFinite(location.altitude, "the altitude")
        requirePlainText(LocationReport.text(location, now: location.timestamp), "the location text")
        let json = LocationReport.json(location)
        require((try? JSONValue.parse(Data(json.utf8))) != nil, "the location JSON is not JSON: \(json)")
    }
}
