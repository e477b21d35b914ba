import TrailheadSchema
import VCard

/// A contact as the model reads it: only fields that have a value (no empty arrays either), emails
/// and phones as plain strings (a phone's kind in parentheses when it says one), preferred ones first.
struct ContactCard: Generable {
    var name: String
    var homeCity: String?
    var country: String?
    var emails: [String]?
    var phones: [String]?
    var groups: [String]?
    var note: String?

    init(_ contact: Contact) {
        name = contact.formattedName
        homeCity = contact.homeCity
        country = contact.country
        emails = Self.nonEmpty(Self.preferredFirst(contact.emails).map(\.value))
        phones = Self.nonEmpty(Self.preferredFirst(contact.phones).map(Self.phoneText))
        groups = Self.nonEmpty(contact.categories)
        note = contact.note
    }

    private static func nonEmpty(_ values: [String]) -> [String]? { values.isEmpty ? nil : values }

    private static func preferredFirst(_ values: [TypedValue]) -> [TypedValue] {
        values.filter { $0.types.contains("pref") } + values.filter { !$0.types.contains("pref") }
    }

    private static func phoneText(_ phone: TypedValue) -> String {
        let kind = phone.types.lazy.compactMap { phoneKinds[$0] }.first
        return kind.map { "\(phone.value) (\($0))" } ?? phone.value
    }

    private static let phoneKinds = [
        "cell": "mobile", "mobile": "mobile", "iphone": "mobile", "home": "home", "work": "work", "fax": "fax",
    ]
}
