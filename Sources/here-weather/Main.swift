import HereWeatherCLI
import HereWeatherCore
#if canImport(Glibc)
import Glibc
#endif

/// The program: runs the command line (HereWeatherCLI) with this process's arguments, streams
/// and terminal, and exits with the status it returns.
@main
enum Main {
    static func main() async {
        // Before the first await: until then the main thread alone runs, and Dispatch is
        // asked for no thread (StartupLimits).
        if let problem = StartupLimits.problem() {
            let line = "here-weather: " + problem + "\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
            exit(ExitStatus.system.rawValue)
        }
        exit(await HereWeatherCommand.run(.process()))
    }
}
