import Foundation
import Testing
@testable import VCard

/// Long fields are cut with a marker so an answer stays within the size a tool may return.
@Suite("shortened contacts")
struct ShortenedContactTests {
    /// Given a card with a 4 MB NOTE, when shortened to 2,000 characters, then the note keeps
    /// its first 2,000 characters and says how many more there were; short fields are untouched.
    @Test func aHugeNoteIsCutWithAMarker() {
        let note = String(repeating: "n", count: 4_000_000)
        let result = VCardReader.read("BEGIN:VCARD\nVERSION:3.0\nFN:Long Note\nEMAIL:a@example.com\nNOTE:\(note)\nEND:VCARD\n")
        let contact = result.contacts[0]
        #expect(contact.note?.count == 4_000_000)
        let (short, cuts) = contact.shortened(toCharacters: 2_000)
        #expect(cuts == 1)
        #expect(short.note == String(repeating: "n", count: 2_000) + "… [cut: 3998000 more characters]")
        #expect(short.formattedName == "Long Note")
        #expect(short.emails == contact.emails)
    }

    @Test func shortFieldsAreLeftAlone() throws {
        let result = try VCardReader.read(contentsOfFile: TestFiles.sampleContacts)
        for contact in result.contacts {
            let (short, cuts) = contact.shortened(toCharacters: 2_000)
            #expect(cuts == 0)
            #expect(short == contact)
        }
    }
}
