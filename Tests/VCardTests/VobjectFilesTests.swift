import Foundation
import Testing
@testable import VCard

/// Every vCard in the vobject sdist, read from disk as it is, with values checked against
/// what vobject's own tests and the files say.
@Suite("vobject's vCard files")
struct VobjectFilesTests {
    /// The files under test_files/ that hold vCards, found by content (they are named .ics).
    static func vCardFiles() throws -> [String] {
        let directory = try TestFiles.vobjectDirectory().appendingPathComponent("test_files")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        return names.filter { name in
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else { return false }
            return String(decoding: data, as: UTF8.self).uppercased().contains("BEGIN:VCARD")
        }
    }

    @Test func everyVCardFileReadsWithoutWarnings() throws {
        let files = try Self.vCardFiles()
        #expect(files == [
            "quoted-printable.ics", "radicale-1238-0.ics", "radicale-1238-1.ics", "radicale-1238-2.ics",
            "radicale-1238-3.ics", "simple_3_0_test.ics", "vcard_with_groups.ics",
        ])
        var total = 0
        for file in files {
            let result = try VCardReader.read(contentsOfFile: try TestFiles.vobjectTestFile(file))
            #expect(result.warnings.isEmpty, "\(file): \(result.warnings)")
            #expect(!result.contacts.isEmpty, "\(file) gave no contacts")
            for contact in result.contacts {
                #expect(!contact.formattedName.isEmpty, "\(file): a contact without a name at line \(contact.lineNumber)")
            }
            total += result.contacts.count
        }
        #expect(total == 360)  // 354 cards in radicale-1238-3 plus one in each of the other six
    }

    @Test func simple30() throws {
        let result = try VCardReader.read(contentsOfFile: try TestFiles.vobjectTestFile("simple_3_0_test.ics"))
        let card = try #require(result.contacts.first)
        #expect(card.formattedName == "Daffy Duck Knudson (with Bugs Bunny and Mr. Pluto)")
        #expect(card.name.family == "Knudson")
        #expect(card.name.given == "Daffy Duck (with Bugs Bunny and Mr. Pluto)")
        #expect(card.nicknames == ["gnat and gnu and pluto"])
        #expect(card.birthday == "02-10")
        #expect(card.phones.map(\.value) == ["+01-(0)2-765.43.21", "+01-(0)5-555.55.55", "+01-(0)2-876.54.32"])
        #expect(card.phones.map(\.types) == [["home"], ["cell"], ["home"]])
        // vobject's test: ORG is the two components.
        #expect(card.organization == "University of Novosibirsk, Department of Octopus Parthenogenesis")
        let address = try #require(card.addresses.first)
        #expect(address.street == "Haight Street 512;\nEscape, Test")
        #expect(address.locality == "Novosibirsk")
        #expect(address.postalCode == "80214")
        #expect(address.country == "Gnuland")
        #expect(address.types == ["home"])
        #expect(card.homeCity == "Novosibirsk")
        #expect(card.country == "Gnuland")
    }

    @Test func groupsAndLowercaseNames() throws {
        let result = try VCardReader.read(contentsOfFile: try TestFiles.vobjectTestFile("vcard_with_groups.ics"))
        let card = try #require(result.contacts.first)
        #expect(card.formattedName == "Meister Berger")
        #expect(card.name.family == "Berger" && card.name.given == "Meister")
        // vobject's test_default_behavior: the folded note, unfolded and unescaped.
        #expect(card.note == "The Mayor of the great city of Goerlitz in the great country of Germany.\nNext line.")
        #expect(card.birthday == "1963-09-21")
        #expect(card.emails == [TypedValue("mb@goerlitz.de", types: ["internet"])])
        // `home.tel;type=fax,voice;type=msg`: grouped, both TYPE forms merged.
        #expect(card.phones == [TypedValue("+49 3581 123456", types: ["fax", "voice", "msg"])])
    }

    @Test func quotedPrintableWithSoftLineBreak() throws {
        let result = try VCardReader.read(contentsOfFile: try TestFiles.vobjectTestFile("quoted-printable.ics"))
        let card = try #require(result.contacts.first)
        #expect(card.formattedName == "黄世勇")
        #expect(card.name.family == "黄" && card.name.given == "世勇")
        #expect(card.phones == [TypedValue("15810139237", types: ["cell"]), TypedValue("01088520374", types: ["work"])])
        #expect(card.addresses.first?.locality == "北京 丰台区")
        #expect(card.addresses.first?.types == ["home"])
        #expect(card.homeCity == "北京 丰台区")
    }

    @Test func appleCardWithGroupedAddressAndPhoto() throws {
        let result = try VCardReader.read(contentsOfFile: try TestFiles.vobjectTestFile("radicale-1238-0.ics"))
        let card = try #require(result.contacts.first)
        #expect(card.formattedName == "Fàn Tông")
        #expect(card.name.isEmpty)
        #expect(card.organization == "Fàn Tông")
        #expect(card.emails == [TypedValue("nihao@fantong.com.au", types: ["home", "internet", "pref"])])
        #expect(card.phones == [TypedValue("+61 2 8056 8588", types: ["work", "pref"])])
        // `item1.ADR` folded in the middle of "Australia".
        let address = try #require(card.addresses.first)
        #expect(address.street == "31 Norton Street")
        #expect(address.locality == "Leichhardt")
        #expect(address.region == "NSW")
        #expect(address.postalCode == "2040")
        #expect(address.country == "Australia")
        #expect(card.uid == "6b3bfd33-1ad6-8b94-1c31-4003efcad17b")
    }

    @Test func androidQuotedPrintableAcrossLines() throws {
        let one = try VCardReader.read(contentsOfFile: try TestFiles.vobjectTestFile("radicale-1238-1.ics"))
        #expect(one.contacts.map(\.formattedName) == ["测试测试测试测试测试测"])
        #expect(one.contacts.first?.name.given == "测试测试测试测试测试测")
        #expect(one.contacts.first?.phones.map(\.value) == ["12 345 678 90"])

        let two = try VCardReader.read(contentsOfFile: try TestFiles.vobjectTestFile("radicale-1238-2.ics"))
        let card = try #require(two.contacts.first)
        #expect(card.formattedName == "蔡媛")
        #expect(card.organization == "北京中航智科技有限公司")
        #expect(card.emails == [TypedValue("caiyuan@zhztech.com", types: ["work"])])
    }

    @Test func androidExportOf354Cards() throws {
        let result = try VCardReader.read(contentsOfFile: try TestFiles.vobjectTestFile("radicale-1238-3.ics"))
        #expect(result.contacts.count == 354)
        #expect(result.contacts.first?.formattedName == "洪俊展")
        #expect(result.contacts.first?.lineNumber == 1)
        #expect(result.contacts.reduce(0) { $0 + $1.emails.count } == 83)
        let wan = try #require(result.contacts.first { $0.formattedName == "万海锋" })
        #expect(wan.phones.map(\.value) == ["18912855666", "051388321198", "88321208", "051388321206"])
        #expect(wan.phones.last?.types == ["work", "fax"])
        #expect(wan.addresses.first?.street == "南通海安经济技术开发区")
        #expect(wan.addresses.first?.region == "江苏省")
        // `ADR;PREF;HOME` beside plain `ADR;HOME`: the first home address gives the city.
        let cui = try #require(result.contacts.first { $0.formattedName == "崔俏" })
        #expect(cui.addresses.count == 3)
        #expect(cui.birthday == "1987-09-26")
        // `TEL;:13811127942` — an empty parameter — still reads.
        #expect(result.contacts.contains { $0.phones.contains { $0.value == "13811127942" && $0.types.isEmpty } })
        // A QP note.
        #expect(result.contacts.contains { $0.note == "交大" })
    }

    @Test func readmeExample() throws {
        // The vCard from vobject's README ("Parsing vCard objects").
        let readme = try String(contentsOf: try TestFiles.vobjectDirectory().appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "... BEGIN:VCARD"))
        let end = try #require(readme.range(of: "... END:VCARD", range: start.upperBound..<readme.endIndex))
        let text = readme[start.lowerBound..<end.upperBound]
            .split(separator: "\n").map { $0.hasPrefix("... ") ? String($0.dropFirst(4)) : String($0) }
            .joined(separator: "\r\n")
        let result = VCardReader.read(text)
        let card = try #require(result.contacts.first)
        #expect(result.warnings.isEmpty)
        #expect(card.formattedName == "Jeffrey Harris")
        #expect(card.name.family == "Harris")
        #expect(card.emails.map(\.value) == ["jeffrey@osafoundation.org", "jeffery@example.org"])
        #expect(card.organization == "Open Source Applications Foundation")
    }
}
