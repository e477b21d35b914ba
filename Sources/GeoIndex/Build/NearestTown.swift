/// Gives places that lack a country (the Wikipedia places) the country and region of the
/// nearest town within 50 km, so that two places of one name can be told apart
/// ("Moraine Lake, Alberta, Canada" and "Moraine Lake, Washington, United States").
/// A place near a border may get the neighbour's; one farther than 50 km from any town keeps none.
enum NearestTown {
    static let maximumDistanceKm = 50.0

    static func fill(_ places: inout [Place]) {
        var cells: [Cell: [Place]] = [:]
        for place in places where place.category == .town && place.country != nil {
            cells[Cell(place.coordinate), default: []].append(place)
        }
        guard !cells.isEmpty else { return }
        for index in places.indices where places[index].country == nil {
            let coordinate = places[index].coordinate
            var best: (town: Place, distance: Double)?
            for cell in Cell(coordinate).neighbourhood {
                for town in cells[cell] ?? [] {
                    let distance = coordinate.distanceKm(to: town.coordinate)
                    if distance <= maximumDistanceKm, distance < best?.distance ?? .infinity { best = (town, distance) }
                }
            }
            if let town = best?.town {
                places[index].country = town.country
                places[index].region = places[index].region ?? town.region
            }
        }
    }

    /// 0.5° cells: the 3 × 3 around a point reach at least 50 km in latitude, and in longitude
    /// up to 55° north or south (farther out a town may be missed, and the place keeps no country).
    private struct Cell: Hashable {
        var latitude: Int
        var longitude: Int

        init(_ coordinate: Coordinate) {
            self.init(latitude: Int((coordinate.latitude * 2).rounded(.down)), longitude: Int((coordinate.longitude * 2).rounded(.down)))
        }

        init(latitude: Int, longitude: Int) {
            self.latitude = latitude
            self.longitude = (longitude + 1080) % 720 - 360
        }

        var neighbourhood: [Cell] {
            (-1...1).flatMap { dy in (-1...1).map { dx in Cell(latitude: latitude + dy, longitude: longitude + dx) } }
        }
    }
}
