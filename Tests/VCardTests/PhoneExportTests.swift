import Foundation
import Testing
@testable import VCard

/// Exports as phones and mail clients write them (Tests/Fixtures/vcards): line-end mixes,
/// embedded AGENT cards, Asian charsets, whole files in UTF-16, huge folded photos.
@Suite("phone and mail client exports")
struct PhoneExportTests {
    private func read(_ fixture: String) throws -> VCardReadResult {
        try VCardReader.read(contentsOfFile: TestFiles.fixture(fixture))
    }

    /// Given an iPhone export whose every line ends in `\r\r\n`, when read, then both contacts
    /// are there: the folded photo is not cut by the phantom blank lines.
    @Test func crCrLfLineEndsKeepEveryContact() throws {
        let result = try read("iphone-cr-cr-lf.vcf")
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        #expect(result.contacts.map(\.formattedName) == ["Chidi Okafor", "Maja Lindqvist"])
        #expect(result.contacts.first?.homeCity == "Bristol")
        #expect(result.contacts.first?.note == "Vegetarian")
        #expect(result.contacts.last?.homeCity == "Uppsala")
    }

    /// Given LF CR pairs, lone CRs and a blank line inside a fold, when read, then the card is whole.
    @Test func mixedLineEndsAndABlankLineInsideAFold() throws {
        let result = try read("mixed-line-ends.vcf")
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        let card = try #require(result.contacts.first)
        #expect(card.formattedName == "Tomás Ruiz")
        #expect(card.note == "Line one of a long note that was folded after a blank line")
        #expect(card.homeCity == "Sevilla")
    }

    /// Given a vCard 2.1 AGENT whose value is an embedded card, when read, then the outer contact
    /// keeps its fields (those after the AGENT too) and the assistant is not a contact of its own.
    @Test func agentWithAnEmbeddedCardKeepsTheOuterContact() throws {
        let result = try read("agent-embedded-2.1.vcf")
        // The file is Windows-1252 without a CHARSET, as 2.1 exports often are.
        #expect(result.warnings.map(\.description) == [
            "card at line 1 (Hélène Baptiste): not valid UTF-8; read as Windows-1252",
        ])
        #expect(result.contacts.map(\.formattedName) == ["Hélène Baptiste", "After Agent Second"])
        let outer = result.contacts[0]
        #expect(outer.emails.map(\.value) == ["helene@example.fr"])
        #expect(outer.phones.map(\.value) == ["+33 1 55 55 01 01"])
        #expect(outer.homeCity == "Paris")
    }

    /// Given SHIFT_JIS (plain and quoted-printable) and Big5 values, when read, then names and
    /// cities are the right characters, not mojibake.
    @Test func shiftJISAndBig5AreDecoded() throws {
        let result = try read("shift-jis-and-big5-2.1.vcf")
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        #expect(result.contacts.map(\.formattedName) == ["山田 太郎", "美玲 陳"])
        #expect(result.contacts[0].name.family == "山田")
        #expect(result.contacts[0].homeCity == "東京")
        #expect(result.contacts[0].country == "日本")
        #expect(result.contacts[0].note == "ソバアレルギー")
        #expect(result.contacts[1].homeCity == "台北")
    }

    /// Given a whole file in UTF-16LE with a byte order mark (Outlook's "Unicode" export), when
    /// read, then it reads as if it were UTF-8; the same without the byte order mark.
    @Test func wholeFileInUTF16() throws {
        let result = try read("outlook-utf16le.vcf")
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        let card = try #require(result.contacts.first)
        #expect(card.formattedName == "Anna Müller")
        #expect(card.homeCity == "Zürich")
        #expect(card.emails.map(\.value) == ["anna.mueller@example.ch"])
        let withoutMark = Data(try Data(contentsOf: URL(fileURLWithPath: TestFiles.fixture("outlook-utf16le.vcf"))).dropFirst(2))
        #expect(VCardReader.read(withoutMark).contacts.map(\.formattedName) == ["Anna Müller"])
    }

    /// Given a value in UTF-16LE without a CHARSET, when read, then the NULs are gone and a
    /// warning names the card.
    @Test func nulCharactersAreRemovedWithAWarning() throws {
        let result = try read("nul-in-value.vcf")
        #expect(result.contacts.map(\.formattedName) == ["Ines Duarte"])
        #expect(result.warnings.map(\.description) == [
            "card at line 1 (Ines Duarte): NUL characters removed (a UTF-16 value without CHARSET?)",
        ])
    }

    /// Given a charset iconv does not know, when read, then the value is read as UTF-8 with a
    /// warning and the card is kept.
    @Test func unknownCharsetWarnsAndKeepsTheCard() {
        let result = VCardReader.read(Data("BEGIN:VCARD\nVERSION:2.1\nN;CHARSET=X-MADE-UP:\u{00C4}bc;D\nEND:VCARD\n".utf8))
        #expect(result.contacts.map(\.formattedName) == ["D Äbc"])
        #expect(result.warnings.map(\.message) == ["unsupported CHARSET=X-MADE-UP; read as UTF-8"])
    }

    /// Given a 2 MB photo folded at 75 columns (a real phone export's shape; this took 24 s when
    /// unfolding was quadratic), when read, then the contact and the field after the photo are there.
    @Test func hugeFoldedPhotoIsReadWhole() {
        let photo = String(repeating: "QUJDRA", count: 2 * 1024 * 1024 / 6)
        var text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Big Photo\r\n"
        let line = Array(("PHOTO;ENCODING=b;TYPE=JPEG:" + photo).utf8)
        let folded = stride(from: 0, to: line.count, by: 74).map { String(decoding: line[$0..<min($0 + 74, line.count)], as: UTF8.self) }
        text += folded.joined(separator: "\r\n ") + "\r\nEMAIL:big@example.com\r\nEND:VCARD\r\n"
        let lines = LogicalLines.split(Array(text.utf8))
        #expect(lines.count == 6)
        #expect(lines[3].bytes.count == "PHOTO;ENCODING=b;TYPE=JPEG:".utf8.count + photo.utf8.count)
        let result = VCardReader.read(text)
        #expect(result.contacts.map(\.emails) == [[TypedValue("big@example.com")]])
    }
}
