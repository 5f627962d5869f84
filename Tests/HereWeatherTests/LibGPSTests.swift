import Testing
import HereWeatherGPSD

/// The CGPS system-library target finds libgps and links against it.
@Suite struct LibGPSTests {
    @Test func linksAgainstLibgpsWithAPI7OrLater() {
        // gps_read's signature used by the shim exists from API 7 on; Debian 12 ships 11.
        #expect(LibGPS.apiMajorVersion >= 7)
    }

    @Test func callsIntoLibgps() {
        // gps_errstr lives in libgps.so: a real call through the linked library.
        #expect(!LibGPS.errorText(-1).isEmpty)
    }
}
