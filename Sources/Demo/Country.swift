/// A country as the countries API describes it; only the fields the demo shows.
struct Country: Codable, Sendable, Equatable {
    /// The country's names.
    struct Name: Codable, Sendable, Equatable {
        /// The everyday name, such as `France`.
        let common: String
        /// The official name, such as `French Republic`.
        let official: String
    }

    /// The country's names.
    let name: Name
    /// The ISO 3166-1 alpha-2 code, such as `FR`.
    let cca2: String
    /// The capital cities; some countries have none, some several.
    let capital: [String]?
    /// The continent-level region, such as `Europe`.
    let region: String
    /// The population.
    let population: Int
}
