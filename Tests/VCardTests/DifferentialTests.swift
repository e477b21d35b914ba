import Foundation
import TrailheadSupport
import Testing
import TrailheadTestSupport
@testable import VCard

/// Our contacts against python's vobject (Scripts/differential-reference.py): name, emails and
/// home city of every card in vobject's vCard files, our fixtures and the sample. Every
/// disagreement must be listed in docs/deliberate-differences.md (`- \`file\`: reason`).
@Suite("vCard differential against vobject")
struct VCardDifferentialTests {
    @Test func contactsAgreeWithVobject() throws {
        let root = Checkout.root
        var files = try VobjectFilesTests.vCardFiles().map { ("vobject/test_files/\($0)", try TestFiles.vobjectTestFile($0)) }
        let fixtures = root + "/Tests/Fixtures/vcards"
        files += try FileManager.default.contentsOfDirectory(atPath: fixtures).filter { $0.hasSuffix(".vcf") }.sorted()
            .map { ("fixtures/\($0)", fixtures + "/" + $0) }
        files.append(("Data/sample/contacts.vcf", TestFiles.sampleContacts))
        let data = try ChildProcess.run(try TrailheadCache.python(), ["-W", "ignore", root + "/Scripts/differential-reference.py", "vcf"] + files.map(\.1))
            .standardOutput
        var reference: [String: [String: Any]] = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) {
            if let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any], let file = object["file"] as? String {
                reference[file] = object
            }
        }
        let listed = try String(contentsOfFile: root + "/docs/deliberate-differences.md", encoding: .utf8)
        var agreements = 0, deliberate = 0, refusedByReference = 0
        var undeclared: [String] = []
        for (name, path) in files {
            let theirs = try #require(reference[path], "\(name): no reference answer")
            if theirs["error"] != nil {
                refusedByReference += 1
                if !listed.contains("- `\(name)`:") { undeclared.append("\(name): vobject refuses it: \(theirs["error"]!)") }
                continue
            }
            let expected = (theirs["contacts"] as? [[String: Any]] ?? []).map { contact in
                "\(contact["name"] as? String ?? "") | \((contact["emails"] as? [String] ?? []).joined(separator: ",")) | \(contact["city"] as? String ?? "")"
            }.sorted()
            let ours = try VCardReader.read(contentsOfFile: path).contacts.map {
                "\($0.formattedName) | \($0.emails.map(\.value).joined(separator: ",")) | \($0.homeCity ?? "")"
            }.sorted()
            if ours == expected {
                agreements += 1
            } else if listed.contains("- `\(name)`:") {
                deliberate += 1
            } else {
                undeclared.append("\(name): ours \(Set(ours).subtracting(expected).sorted()), vobject \(Set(expected).subtracting(ours).sorted())")
            }
        }
        print("vCard differential: \(files.count) files, \(agreements) agree, \(deliberate) deliberate differences, \(refusedByReference) refused by vobject, \(undeclared.count) undeclared")
        for line in undeclared { print("  undeclared: \(line)") }
        #expect(undeclared.isEmpty)
    }
}
