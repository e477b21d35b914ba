import Foundation
import Testing
import TrailheadSupport
@testable import VCard

/// Quoted-printable, CHARSET and files that are not UTF-8.
@Suite("vCard encodings")
struct EncodingTests {
    @Test func quotedPrintableLatin1AndWindows1252() throws {
        let result = try VCardReader.read(contentsOfFile: TestFiles.fixture("latin1-quoted-printable.vcf"))
        #expect(result.warnings.isEmpty)
        let card = try #require(result.contacts.first)
        #expect(card.formattedName == "René François")
        #expect(card.name.family == "François")
        // A bare `QUOTED-PRINTABLE` parameter, and a soft line break inside "Deutschland".
        let address = try #require(card.addresses.first)
        #expect(address.street == "Straße 5")
        #expect(address.locality == "Köln")
        #expect(address.country == "Deutschland")
        // Windows-1252: =80 is €, =93/=94 are curly quotes, =96 an en dash; the soft line break
        // is followed by a space that belongs to the text; =3D is '='.
        #expect(card.note == "Owes me €20 for the “café” – soon= later")
        #expect(card.phones.first?.types == ["work", "voice"])
    }

    @Test func notUTF8WithoutCharsetFallsBackPerCard() throws {
        let result = try VCardReader.read(contentsOfFile: TestFiles.fixture("non-utf8-latin1.vcf"))
        #expect(result.contacts.map(\.formattedName) == ["Jürgen Müller", "Plain UTF-8 Zoë"])
        let first = result.contacts[0]
        #expect(first.homeCity == "Zürich")
        #expect(first.addresses.first?.street == "Hauptstraße 1")
        #expect(first.note == "Café “owner”")
        // One warning for the card that needed the fallback, none for the UTF-8 one.
        #expect(result.warnings.map(\.description) == [
            "card at line 1 (Jürgen Müller): not valid UTF-8; read as Windows-1252",
        ])
    }

    @Test func arbitraryBytesNeverCrash() {
        var generator = SeededRandom(seed: 42)
        for _ in 0..<200 {
            var bytes = Array("BEGIN:VCARD\r\nVERSION:2.1\r\nFN;ENCODING=QUOTED-PRINTABLE:".utf8)
            bytes += (0..<Int.random(in: 0..<200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            bytes += Array("\r\nEND:VCARD\r\n".utf8)
            let result = VCardReader.read(Data(bytes))
            #expect(result.contacts.count + result.warnings.count >= 1)
        }
    }

    @Test func base64PhotoIn21IsSkippedAndTheCardRead() throws {
        let result = try VCardReader.read(contentsOfFile: TestFiles.fixture("base64-photo-2.1.vcf"))
        #expect(result.warnings.isEmpty)
        let card = try #require(result.contacts.first)
        #expect(card.formattedName == "Pat Photo")
        #expect(card.phones.map(\.value) == ["+1 555 0199"])
        #expect(card.emails.map(\.value) == ["pat@example.com"])
    }

    @Test func koi8rIsDecodedThroughIconv() {
        // "Иван" in KOI8-R.
        var bytes = Array("BEGIN:VCARD\nVERSION:2.1\nN;CHARSET=KOI8-R:".utf8) + [0xE9, 0xD7, 0xC1, 0xCE]
        bytes += Array(";D\nEND:VCARD\n".utf8)
        let result = VCardReader.read(Data(bytes))
        #expect(result.contacts.map(\.formattedName) == ["D Иван"])
        #expect(result.warnings.isEmpty)
    }

    @Test func quotedPrintableDecoder() throws {
        #expect(try QuotedPrintable.decode(Array("a=3Db=C3=A9".utf8)[...]) == Array("a=bé".utf8))
        #expect(try QuotedPrintable.decode(Array("end=".utf8)[...]) == Array("end".utf8))
        #expect(throws: QuotedPrintable.Problem.self) { try QuotedPrintable.decode(Array("=G1".utf8)[...]) }
        #expect(throws: QuotedPrintable.Problem.self) { try QuotedPrintable.decode(Array("ab=4".utf8)[...]) }
    }
}

/// Damaged versions of real files never crash the reader, and every card is either read or
/// reported.
@Suite("damaged vCard files")
struct DamagedFileTests {
    @Test func mutatedSampleFilesNeverCrash() throws {
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestFiles.sampleContacts)))
        let interesting: [UInt8] = Array("\r\n:;=,\\\" \t.".utf8) + [0xC3, 0xFF, 0x00]
        var generator = SeededRandom(seed: 7)
        for round in 0..<300 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[position] = interesting.randomElement(using: &generator)!
                case 1: bytes.insert(interesting.randomElement(using: &generator)!, at: position)
                default: bytes.remove(at: position)
                }
            }
            if round % 10 == 0 { bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator))) }
            let result = VCardReader.read(Data(bytes))
            #expect(result.contacts.count <= 12 + 12)  // damage can split a card, never invent many
            #expect(result.contacts.allSatisfy { !$0.formattedName.isEmpty })
        }
    }
}
