import HereWeatherCLI
import HereWeatherCore
import HereWeatherExecutors
#if canImport(Glibc)
import Glibc
#endif

/// The program: runs the command line (HereWeatherCLI) with this process's arguments, streams
/// and terminal, and exits with the status it returns.
///
/// Its tasks run on `QuietExecutors` (a thread pool and the main thread), not Dispatch's: once
/// Dispatch starts a worker it wakes the process every second for good, and `--follow` waits
/// for hours (issue 31). So `main` is synchronous: the executors are installed before the first
/// task, and the main thread then serves the main actor until the command exits.
@main
enum Main {
    static func main() {
        // Until the first task the main thread alone runs, and no thread is asked for
        // (StartupLimits).
        if let problem = StartupLimits.problem() {
            let line = "here-weather: " + problem + "\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
            exit(ExitStatus.system.rawValue)
        }
        QuietExecutors.install()
        Task { exit(await HereWeatherCommand.run(.process())) }
        QuietExecutors.runMainThread()
    }
}
