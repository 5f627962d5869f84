import Foundation
import Testing

/// The command tests run the binary users run: the release build with the Swift runtime
/// linked in, as `make build` makes it (`CommandRunner.executable`).
@Suite struct TestedBinaryTests {
    @Test func commandTestsRunTheStaticReleaseBinary() async throws {
        let binary = CommandRunner.executable
        #expect(!binary.path.contains("/debug/"), "the command tests run \(binary.path), a debug build")
        // A binary with the Swift runtime linked in needs no libswiftCore.so at run time.
        let ldd = try await CapturedRun.run("/usr/bin/ldd", [binary.path], environment: ["PATH": "/usr/bin:/bin"])
        let text = ldd.text
        #expect(ldd.status == 0, "ldd failed: \(text)")
        #expect(!text.contains("libswift"), "the tested binary links Swift libraries:\n\(text)")
        #expect(!text.contains("libFoundation"), "the tested binary links Foundation dynamically:\n\(text)")
    }

    /// `doctor` with a source that answers: crashed the release build (SIGILL) when it
    /// looped over a task group in the form Swift 6.3.1 miscompiles.
    @Test func doctorWithAnAnsweringSourceDoesNotCrash() async throws {
        let runner = try CommandRunner()
        try runner.writeConfig("""
            version = 1
            [location]
            sources = ["fixed"]
            [location.fixed]
            latitude = 27.95
            longitude = -82.46
            [weather.open-meteo]
            base_url = "http://127.0.0.1:9/v1/forecast"
            allow_plain_http = true
            [weather.nws]
            base_url = "http://127.0.0.1:9"
            """)
        let result = try await runner.run(["doctor"], killAfter: .seconds(60))
        #expect(result.status < 128, "doctor crashed: status \(result.status), stderr \(result.stderr)")
        #expect(result.stdout.contains("fixed"), "doctor printed: \(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("27.95"), "doctor printed: \(result.stdout)\(result.stderr)")
    }
}
