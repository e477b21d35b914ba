import Foundation
import Testing
@testable import VCard

/// Search over the bundled Data/sample/contacts.vcf, as the plugin runs it.
@Suite("contact search")
struct ContactSearchTests {
    let search: ContactSearch

    init() throws {
        let result = try VCardReader.read(contentsOfFile: TestFiles.sampleContacts)
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        search = ContactSearch(contacts: result.contacts)
    }

    func names(_ query: String, group: String? = nil, limit: Int = 50) -> [String] {
        search.search(query, group: group, limit: limit).contacts.map(\.formattedName)
    }

    @Test func sampleFileHasTwelveContactsInThreeGroups() {
        #expect(search.contacts.count == 12)
        #expect(Set(search.groups) == ["friends", "family", "work"])
        let frank = search.contacts.first { $0.formattedName == "Frank Müller" }
        #expect(frank?.homeCity == "München")  // the quoted-printable 2.1 card, in ISO-8859-1
        #expect(frank?.note == "Uncle. Bad knee: prefers short walks with plenty of shade and a café at the end.")
        let jose = search.contacts.first { $0.formattedName == "José Álvarez" }
        #expect(jose?.homeCity == "Zürich")
        #expect(jose?.addresses.first?.street == "Seefeldstrasse 8")  // folded mid-word
        let ana = search.contacts.first { $0.formattedName == "Ana Lima" }
        #expect(ana?.note == "Loves hiking and desert sunrises; vegetarian. Happy to drive on long trips.")
    }

    @Test func relationshipsNoGroupHasAreFoundInNotesAndNicknamesByName() {
        // "my cousin": no group is called so, Chloé's note says "Cousin.".
        #expect(names("my cousin") == ["Chloé Martin"])
        #expect(names("", group: "cousin") == ["Chloé Martin"])
        #expect(names("", group: "cousins") == ["Chloé Martin"])
        #expect(names("sister") == ["Hannah Becker"])
        #expect(names("Benji") == ["Ben Okafor"])
        #expect(names("", group: "friend").count == 6)
        // A question for a query: the contacts some word finds.
        #expect(names("Dmitri likes to drink").isEmpty)
        #expect(search.searchAnyWord("Dmitri likes to drink").contacts.first?.formattedName == "Dmitri Volkov")
        #expect(search.searchAnyWord("Dmitri").contacts.isEmpty)
        // A group that exists still filters.
        #expect(names("Ana", group: "family").isEmpty)
    }

    @Test func theDemoPair() {
        // The demo runs `--with "Ana, Ben"`: commas separate people.
        #expect(names("Ana, Ben") == ["Ana Lima", "Ben Okafor"])
        #expect(names("Ana and Ben") == ["Ana Lima", "Ben Okafor"])
        #expect(names("Ana, Ben", group: "friends") == ["Ana Lima", "Ben Okafor"])
        #expect(names("Ana", group: "family").isEmpty)
    }

    @Test func accentsAndCaseAreFolded() {
        #expect(names("jose") == ["José Álvarez"])
        #expect(names("ALVAREZ") == ["José Álvarez"])
        #expect(names("zurich") == ["José Álvarez"])
        #expect(names("Zürich") == ["José Álvarez"])
        #expect(names("muenchen").isEmpty)  // folding removes accents; it does not transliterate
        #expect(names("munchen") == ["Frank Müller"])
        #expect(names("chloe") == ["Chloé Martin"])
    }

    @Test func fieldsSearched() {
        #expect(names("Benji") == ["Ben Okafor"])                      // nickname
        #expect(names("san diego") == ["Ben Okafor"])                   // city, both words
        #expect(names("vegetarian") == ["Ana Lima", "Grace Kim"])       // notes
        #expect(names("afraid of heights") == ["Ben Okafor"])
        #expect(names("kyoto") == ["Emi Tanaka"])
        #expect(names("japan") == ["Emi Tanaka"])                       // country
        #expect(names("family") == ["Chloé Martin", "Frank Müller", "Hannah Becker"])  // groups
        #expect(names("friends in Los Angeles") == ["Ana Lima"])        // filler word "in" ignored
        #expect(names("Ana's") == ["Ana Lima"])                         // single letters ignored
        #expect(names("grace.kim@example.com") == ["Grace Kim"])        // email addresses
    }

    @Test func wordsMatchTheStartOfWords() {
        #expect(names("ben") == ["Ben Okafor"])          // not "Becker" nor a word containing "ben"
        #expect(names("Ana Lima") == ["Ana Lima"])
        #expect(names("Ana Okafor").isEmpty)              // every word of one alternative must match
        #expect(names("hik") == ["Ana Lima"])
    }

    @Test func rankingPutsNameMatchesFirst() {
        // "Kai" is Kai Nakamura's name; nobody else mentions it, so one result; "work" matches a group
        // for five people and a name for none, so they come alphabetically.
        #expect(names("kai") == ["Kai Nakamura"])
        #expect(names("work") == ["Dmitri Volkov", "Grace Kim", "Isaac Cohen", "José Álvarez", "Kai Nakamura"])
    }

    @Test func emptyOrStarListsEveryoneWithinTheLimit() {
        #expect(names("").count == 12)
        #expect(names("*").count == 12)
        #expect(names("*").first == "Ana Lima")
        let limited = search.search("", limit: 5)
        #expect(limited.contacts.count == 5)
        #expect(limited.omitted == 7)
    }

    @Test func groupFilterIsCaseAndPluralInsensitive() {
        #expect(names("", group: "FRIENDS") == names("", group: "friends"))
        #expect(names("", group: "friend") == names("", group: "friends"))
        #expect(names("", group: "friends") == ["Ana Lima", "Ben Okafor", "Emi Tanaka", "José Álvarez", "Julia Rossi", "Kai Nakamura"])
        #expect(names("", group: "Work") == ["Dmitri Volkov", "Grace Kim", "Isaac Cohen", "José Álvarez", "Kai Nakamura"])
        #expect(names("", group: "enemies").isEmpty)
        #expect(names("berlin", group: "work") == ["Dmitri Volkov"])
    }

    @Test func folding() {
        #expect(SearchFolding.fold("Zürich") == "zurich")
        #expect(SearchFolding.fold("José ÁLVAREZ") == "jose alvarez")
        #expect(SearchFolding.fold("Straße Øster Łódź") == "strasse oster lodz")
        #expect(SearchFolding.words("Saint-Émilion, 33330") == ["saint", "emilion", "33330"])
    }
}
