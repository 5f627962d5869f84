import HereWeatherCLI
#if canImport(Glibc)
import Glibc
#endif

/// The program: runs the command line (HereWeatherCLI) with this process's arguments, streams
/// and terminal, and exits with the status it returns.
@main
enum Main {
    static func main() async {
        exit(await HereWeatherCommand.run(.process()))
    }
}
