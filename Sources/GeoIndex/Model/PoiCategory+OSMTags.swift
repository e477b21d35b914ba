import PointsOfInterestTypes

extension PoiCategory {
    /// The category of an OpenStreetMap feature from its tags, or nil when it is none of ours.
    ///
    /// Tags are checked in order of specificity: a hotel that is also `historic=building` is
    /// lodging, a castle that is also a `tourism=attraction` is a landmark.
    public static func fromOSMTags(_ tags: [String: String]) -> PoiCategory? {
        if let tourism = tags["tourism"], let category = tourismCategories[tourism] { return category }
        if let amenity = tags["amenity"], let category = amenityCategories[amenity] { return category }
        if let leisure = tags["leisure"], let category = leisureCategories[leisure] { return category }
        if tags["natural"] == "beach" { return .beach }
        if tags["natural"] == "peak" || tags["natural"] == "volcano" { return .viewpoint }
        if let aeroway = tags["aeroway"], aeroway == "aerodrome" || aeroway == "airport" { return .airport }
        if let place = tags["place"], ["city", "town", "village", "hamlet"].contains(place) { return .town }
        if let historic = tags["historic"], historicLandmarks.contains(historic) { return .landmark }
        if tags["route"] == "hiking" || tags["highway"] == "trailhead" { return .hike }
        if tags["tourism"] == "attraction" || tags["historic"] != nil { return .landmark }
        return nil
    }

    private static let tourismCategories: [String: PoiCategory] = [
        "viewpoint": .viewpoint,
        "camp_site": .campground, "caravan_site": .campground, "wilderness_hut": .campground,
        "hotel": .lodging, "motel": .lodging, "hostel": .lodging, "guest_house": .lodging,
        "chalet": .lodging, "alpine_hut": .lodging, "apartment": .lodging,
        "museum": .museum, "gallery": .museum,
        "picnic_site": .viewpoint,
    ]

    private static let amenityCategories: [String: PoiCategory] = [
        "restaurant": .restaurant, "fast_food": .restaurant, "pub": .restaurant, "biergarten": .restaurant,
        "food_court": .restaurant,
        "cafe": .cafe, "ice_cream": .cafe,
    ]

    private static let leisureCategories: [String: PoiCategory] = [
        "marina": .marina, "slipway": .marina,
        "beach_resort": .beach,
        "nature_reserve": .hike,
    ]

    private static let historicLandmarks: Set<String> = [
        "castle", "monument", "memorial", "ruins", "fort", "archaeological_site", "church", "city_gate",
        "tower", "manor", "palace",
    ]
}
