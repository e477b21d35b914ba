/// One person read from a vCard: the fields Trailhead uses, decoded and unescaped.
///
/// Empty fields are empty strings or arrays, never placeholders; `homeCity` and `country`
/// are derived from `addresses`.
public struct Contact: Sendable, Hashable {
    /// `FN`, or a name built from `N` when a card has no `FN`.
    public var formattedName: String
    public var name: NameComponents
    public var nicknames: [String]
    public var emails: [TypedValue]
    public var phones: [TypedValue]
    public var addresses: [PostalAddress]
    /// `CATEGORIES` (and vCard 4.0 group cards the contact is a member of).
    public var categories: [String]
    public var note: String?
    public var organization: String?
    /// As written (`1987-09-26`, `--0210`, `19870926`): vCards use several date forms.
    public var birthday: String?
    public var uid: String?
    /// The line of the card's `BEGIN:VCARD` in its file, for messages.
    public var lineNumber: Int

    public init(
        formattedName: String, name: NameComponents = NameComponents(), nicknames: [String] = [],
        emails: [TypedValue] = [], phones: [TypedValue] = [], addresses: [PostalAddress] = [],
        categories: [String] = [], note: String? = nil, organization: String? = nil,
        birthday: String? = nil, uid: String? = nil, lineNumber: Int = 0
    ) {
        self.formattedName = formattedName
        self.name = name
        self.nicknames = nicknames
        self.emails = emails
        self.phones = phones
        self.addresses = addresses
        self.categories = categories
        self.note = note
        self.organization = organization
        self.birthday = birthday
        self.uid = uid
        self.lineNumber = lineNumber
    }

    /// The address the contact lives at: the one typed `home`, else the first one.
    public var homeAddress: PostalAddress? {
        addresses.first { $0.types.contains("home") } ?? addresses.first
    }

    /// The locality of the home address (or of the first address that has one).
    public var homeCity: String? {
        if let city = homeAddress?.locality, !city.isEmpty { return city }
        return addresses.first { !$0.locality.isEmpty }?.locality
    }

    /// The country of the home address (or of the first address that has one).
    public var country: String? {
        if let country = homeAddress?.country, !country.isEmpty { return country }
        return addresses.first { !$0.country.isEmpty }?.country
    }
}

/// The components of `N`: family;given;additional;prefixes;suffixes.
public struct NameComponents: Sendable, Hashable {
    public var family: String
    public var given: String
    public var additional: String
    public var prefixes: String
    public var suffixes: String

    public init(family: String = "", given: String = "", additional: String = "", prefixes: String = "", suffixes: String = "") {
        self.family = family
        self.given = given
        self.additional = additional
        self.prefixes = prefixes
        self.suffixes = suffixes
    }

    public var isEmpty: Bool { [family, given, additional, prefixes, suffixes].allSatisfy(\.isEmpty) }

    /// "Dr. Ana Maria Lima Jr." — the order people read a name in.
    public var displayName: String {
        [prefixes, given, additional, family, suffixes].filter { !$0.isEmpty }.joined(separator: " ")
    }
}

/// An email address or phone number with its `TYPE`s, lowercased (`home`, `work`, `cell`, `pref`…).
public struct TypedValue: Sendable, Hashable {
    public var value: String
    public var types: [String]

    public init(_ value: String, types: [String] = []) {
        self.value = value
        self.types = types
    }
}

/// The components of `ADR`: PO box;extended;street;locality;region;postal code;country.
public struct PostalAddress: Sendable, Hashable {
    public var types: [String]
    public var poBox: String
    public var extended: String
    public var street: String
    /// The city.
    public var locality: String
    public var region: String
    public var postalCode: String
    public var country: String

    public init(
        types: [String] = [], poBox: String = "", extended: String = "", street: String = "",
        locality: String = "", region: String = "", postalCode: String = "", country: String = ""
    ) {
        self.types = types
        self.poBox = poBox
        self.extended = extended
        self.street = street
        self.locality = locality
        self.region = region
        self.postalCode = postalCode
        self.country = country
    }
}
