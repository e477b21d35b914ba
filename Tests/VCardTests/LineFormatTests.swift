import Foundation
import Testing
@testable import VCard

/// Folding, escaping, parameters and structured values, on fixture files written to exercise them.
@Suite("vCard line format")
struct LineFormatTests {
    @Test func foldingAndEscaping() throws {
        let result = try VCardReader.read(contentsOfFile: TestFiles.fixture("folding-and-escaping.vcf"))
        #expect(result.warnings.isEmpty)
        let card = try #require(result.contacts.first)
        // "FN:Marie-Claire\r\n  de la Tour": one space of the fold is dropped, the other kept.
        #expect(card.formattedName == "Marie-Claire de la Tour")
        // N with several given names (`Marie,Claire`), a prefix and a suffix.
        #expect(card.name == NameComponents(family: "de la Tour", given: "Marie Claire", prefixes: "Dr.", suffixes: "PhD"))
        #expect(card.name.displayName == "Dr. Marie Claire de la Tour PhD")
        #expect(card.nicknames == ["Mimi", "MC, the Great"])
        // \n \N \; \, \\ and a fold that starts with a tab.
        #expect(card.note == "First line\nsecond line\nthird line; semi, comma\\ backslash and a tab fold")
        let address = try #require(card.addresses.first)
        #expect(address.poBox == "PO 7")
        #expect(address.extended == "Apt 3, Floor 2")
        // Folded mid-word, and two street values separated by an unescaped comma.
        #expect(address.street == "12 Rue des Fleurs, Bâtiment B")
        #expect(address.locality == "Lyon")
        #expect(address.region == "Auvergne-Rhône-Alpes")
        #expect(address.postalCode == "69001")
        #expect(address.country == "France")
        #expect(card.categories == ["friends", "climbing, bouldering", "family"])
    }

    @Test func bareLineFeeds() throws {
        let result = try VCardReader.read(contentsOfFile: TestFiles.fixture("lf-line-ends.vcf"))
        #expect(result.warnings.isEmpty)
        #expect(result.contacts.map(\.formattedName) == ["Lars Øster", "Second Card"])
        #expect(result.contacts.first?.homeCity == "København")
        #expect(result.contacts.map(\.lineNumber) == [1, 8])
    }

    @Test func parameterForms() throws {
        let result = try VCardReader.read(contentsOfFile: TestFiles.fixture("parameters.vcf"))
        #expect(result.warnings.isEmpty)
        let card = try #require(result.contacts.first)
        #expect(card.emails == [
            TypedValue("both@example.com", types: ["home", "work"]),       // TYPE=HOME,WORK
            TypedValue("repeated@example.com", types: ["home", "work"]),   // TYPE=home;TYPE=work
            TypedValue("quoted@example.com", types: ["home", "work", "pref"]),  // TYPE="home,work";PREF=1
            TypedValue("labelled@example.com", types: ["internet", "climbing club"]),  // item2.X-ABLabel
        ])
        // vCard 2.1 bare parameters.
        #expect(card.phones == [
            TypedValue("+1 555 0001", types: ["home", "voice"]),
            TypedValue("+1 555 0002", types: ["cell", "pref"]),
        ])
        // A quoted LABEL holding `;` and `:` does not end the parameters; the Apple label
        // `_$!<Home>!$_` on item1 makes the address a home address.
        let home = try #require(card.addresses.first)
        #expect(home.street == "Main St 1")
        #expect(home.types == ["pref", "home"])
        #expect(card.homeCity == "Springfield")
        #expect(card.addresses.count == 2)
    }

    @Test func homeCityPrefersTheHomeAddress() {
        let result = VCardReader.read("""
            BEGIN:VCARD\r
            VERSION:3.0\r
            FN:Two Places\r
            ADR;TYPE=WORK:;;1 Work St;Oakland;CA;;USA\r
            ADR;TYPE=HOME:;;2 Home St;Berkeley;CA;;\r
            END:VCARD\r
            """)
        let card = result.contacts.first
        #expect(card?.homeCity == "Berkeley")
        // The home address has no country: the first address that has one gives it.
        #expect(card?.country == "USA")
    }

    @Test func caretEncodedParameterAndUnknownPropertiesAreHarmless() {
        let result = VCardReader.read("BEGIN:VCARD\nVERSION:4.0\nFN:Caret\nX-A;X-B=\"^'q^'^n\":v\nX-SOCIALPROFILE;type=twitter:x\nEND:VCARD\n")
        #expect(result.warnings.isEmpty)
        #expect(result.contacts.map(\.formattedName) == ["Caret"])
    }

    @Test func paramParser() throws {
        let line = try ContentLineParser.parse(LogicalLine(number: 3, bytes: Array("item1.tel;TYPE=\"a,b\";X-Q=\"x;y:z\";HOME;ENCODING=QUOTED-PRINTABLE:1:2".utf8)))
        #expect(line.group == "item1")
        #expect(line.name == "TEL")
        #expect(line.types == ["a", "b", "home"])
        #expect(line.parameter("X-Q") == "x;y:z")
        #expect(line.parameter("ENCODING") == "QUOTED-PRINTABLE")
        #expect(String(decoding: line.rawValue, as: UTF8.self) == "1:2")
    }
}
