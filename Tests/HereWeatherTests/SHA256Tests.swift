import Testing
@testable import HereWeatherCore

/// SHA-256 and HMAC-SHA-256 against published known answers: FIPS 180-4's examples (NIST
/// CSRC "Examples with intermediate values") and RFC 4231's HMAC test cases.
struct SHA256Tests {
    func hex(_ text: String) -> String { SHA256.hex(SHA256.hash(Array(text.utf8))) }

    @Test func knownAnswers() {
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // 448 bits: the padding needs a second block.
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // 896 bits, two blocks of message.
        #expect(hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu")
                == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test func paddingAtEveryLengthAroundABlock() {
        // 55, 56 and 64 bytes: the length fits, just does not, and a whole block.
        #expect(hex(String(repeating: "a", count: 55)) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(hex(String(repeating: "a", count: 56)) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(hex(String(repeating: "a", count: 64)) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    @Test func hmacKnownAnswersFromRFC4231() {
        func hmac(_ key: [UInt8], _ data: [UInt8]) -> String { SHA256.hex(SHA256.hmac(key: key, message: data)) }
        #expect(hmac([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(hmac(Array("Jefe".utf8), Array("what do ya want for nothing?".utf8))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // A key longer than the block is hashed first (test case 6).
        #expect(hmac([UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }
}
