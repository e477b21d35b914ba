import TrailheadSchema

/// What `describeLandmark` answers: a place by its full name, where it is, and what it is. The
/// points-of-interest plugin writes it; `agent plan` reads it for the offline description.
public struct LandmarkDescription: Generable, Sendable {
    public var name: String
    public var country: String?
    public var latitude: Double
    public var longitude: Double
    public var description: String
    /// The other places of the same name, when the best known was chosen among several.
    public var note: String?

    public init(name: String, country: String?, latitude: Double, longitude: Double, description: String, note: String? = nil) {
        self.name = name
        self.country = country
        self.latitude = latitude
        self.longitude = longitude
        self.description = description
        self.note = note
    }
}
