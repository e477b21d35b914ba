/// The properties of a Wikipedia place (Data/poi): `wikipedia` ("en:<title>"), `page_len`
/// (the article's length, a popularity signal) and `wp_type` (the `{{coord}}` type, which
/// editors often misspell: only known types become a place's `kind`).
enum WikipediaProperties {
    /// The article title without its language prefix.
    static func title(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value.hasPrefix("en:") ? String(value.dropFirst(3)) : value
    }

    /// A readable kind for a `{{coord}}` type, or nil for "landmark" (the category says as
    /// much), misspellings and anything unknown.
    static func kind(_ type: String?) -> String? {
        guard let type else { return nil }
        return kinds[type.lowercased()]
    }

    private static let kinds: [String: String] = [
        "mountain": "mountain", "peak": "mountain", "pass": "mountain pass", "glacier": "glacier",
        "waterbody": "body of water", "lake": "lake", "bay": "bay", "isle": "island", "island": "island",
        "islet": "island", "forest": "forest", "landform": "landform", "valley": "valley", "park": "park",
        "building": "building", "church": "church", "temple": "temple", "monastery": "monastery",
        "castle": "castle", "fort": "fort", "bridge": "bridge", "museum": "museum", "monument": "monument",
        "waterfall": "waterfall", "beach": "beach", "cape": "cape", "garden": "garden", "zoo": "zoo",
        "lighthouse": "lighthouse", "shrine": "shrine", "mosque": "mosque", "abbey": "abbey",
    ]
}
