import Foundation
import Testing
@testable import VCard

/// Broken cards are skipped with a warning naming them; the rest of the file is read.
@Suite("malformed vCards")
struct MalformedCardTests {
    @Test func eachProblemSkipsOnlyItsCard() throws {
        let result = try VCardReader.read(contentsOfFile: TestFiles.fixture("malformed.vcf"))
        #expect(result.contacts.map(\.formattedName) == ["Good One", "Good Two"])
        #expect(result.warnings.map(\.description) == [
            "card at line 6 (Missing End): no END:VCARD before the next BEGIN:VCARD at line 9; card skipped",
            "card at line 9 (Garbage Inside): line 12 is not a property (no ':'): 'this line has no colon'; card skipped",
            "line 15: no name (neither FN nor N has a value); card skipped",
            "card at line 19 (QP Bad): line 22 (FN): bad quoted-printable escape '=ZZ' (expected '=' and two hex digits); card skipped",
            "line 24: END:VCARD without BEGIN:VCARD; ignored",
            "card at line 29 (Unterminated At End): no END:VCARD before the end of the file; card skipped",
            "line 1: 1 line outside BEGIN:VCARD…END:VCARD ignored",
        ])
    }

    @Test func emptyAndNonVCardInput() {
        #expect(VCardReader.read(Data()).contacts.isEmpty)
        #expect(VCardReader.read(Data()).warnings.isEmpty)
        let calendar = VCardReader.read("BEGIN:VCALENDAR\nVERSION:2.0\nEND:VCALENDAR\n")
        #expect(calendar.contacts.isEmpty)
        #expect(calendar.warnings.map(\.description) == ["line 1: 3 lines outside BEGIN:VCARD…END:VCARD ignored"])
    }

    @Test func propertyWithoutAName() {
        let result = VCardReader.read("BEGIN:VCARD\nFN:Ok Name\n:no name here\nEND:VCARD\n")
        #expect(result.contacts.isEmpty)
        #expect(result.warnings.first?.description == "card at line 1 (Ok Name): line 3 has no valid property name: ':no name here'; card skipped")
    }

    @Test func hugeFileIsRefusedBeforeReading() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vcard-huge-\(UUID().uuidString).vcf").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        // A sparse file: its size is what is checked, it is never read.
        try handle.truncate(atOffset: UInt64(VCardReader.maximumFileSize + 1))
        try handle.close()
        #expect(throws: VCardFileError.tooLarge(path: path, bytes: VCardReader.maximumFileSize + 1, limit: VCardReader.maximumFileSize)) {
            try VCardReader.read(contentsOfFile: path)
        }
        let refused = VCardReader.read(Data(count: 2048), maximumSize: 1024)
        #expect(refused.contacts.isEmpty)
        #expect(refused.warnings.first?.message == "input is 2048 bytes; the limit is 1024 bytes; nothing read")
    }

    @Test func missingFileAndDirectory() {
        #expect(throws: VCardFileError.missing(path: "/nonexistent/contacts.vcf")) {
            try VCardReader.read(contentsOfFile: "/nonexistent/contacts.vcf")
        }
        let directory = FileManager.default.temporaryDirectory.path
        #expect(throws: VCardFileError.unreadable(path: directory, reason: "it is a directory")) {
            try VCardReader.read(contentsOfFile: directory)
        }
    }

    @Test func groupCardsBecomeCategories() throws {
        let result = try VCardReader.read(contentsOfFile: TestFiles.fixture("group-cards.vcf"))
        #expect(result.warnings.isEmpty)
        #expect(result.contacts.map(\.formattedName) == ["Alice Group", "Bob Group"])
        #expect(result.contacts[0].categories == ["Climbing buddies", "Book club"])
        #expect(result.contacts[1].categories == ["work", "Climbing buddies"])
    }
}
