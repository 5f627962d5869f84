import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Everything up to end of file on `descriptor`, as `readDataToEndOfFile()` reads it, except
/// that a read interrupted by a signal (EINTR) is retried. Foundation's traps on EINTR (a `try!`
/// inside it), which took the whole test process down once during `make test`
/// (InterruptSafeReadTests).
func readToEndRetryingInterrupts(_ descriptor: Int32) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            data.append(contentsOf: buffer[..<count])
        } else if count == 0 || errno != EINTR {
            return data
        }
    }
}

extension FileHandle {
    /// `readToEndRetryingInterrupts(fileDescriptor)`.
    func readToEndRetryingInterrupts() -> Data { HereWeatherTests.readToEndRetryingInterrupts(fileDescriptor) }
}
