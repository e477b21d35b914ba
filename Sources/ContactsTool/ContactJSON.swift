import TrailheadSchema
import VCard

/// A contact as the model reads it: only fields that have a value (no empty arrays either), emails and phones as plain
/// strings (a phone's kind in parentheses when it says one), preferred ones first.
enum ContactJSON {
    static func content(_ contact: Contact) -> GeneratedContent {
        var object: JSONObject = ["name": .string(contact.formattedName)]
        if let city = contact.homeCity { object["homeCity"] = .string(city) }
        if let country = contact.country { object["country"] = .string(country) }
        if !contact.emails.isEmpty { object["emails"] = .array(preferredFirst(contact.emails).map { .string($0.value) }) }
        if !contact.phones.isEmpty { object["phones"] = .array(preferredFirst(contact.phones).map { .string(phoneText($0)) }) }
        if !contact.categories.isEmpty { object["groups"] = .array(contact.categories.map { .string($0) }) }
        if let note = contact.note { object["note"] = .string(note) }
        return .object(object)
    }

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
