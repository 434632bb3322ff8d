import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

@Suite struct URLFormEncoderTests {
    struct Filter: Encodable {
        let owner: String
        let stars: Int
    }

    struct Search: Encodable {
        let term: String
        let tags: [String]
        let page: Int?
        let archived: Bool
        let since: Date
        let filter: Filter
    }

    static let search = Search(
        term: "swift lang", tags: ["a", "b"], page: nil, archived: false,
        since: Date(timeIntervalSince1970: 1_700_000_000), filter: Filter(owner: "apple", stars: 5))

    static func pairs(_ items: [URLQueryItem]) -> [String] { items.map { "\($0.name)=\($0.value ?? "")" } }

    @Test func aStructBecomesSortedItemsWithBracketsForArraysAndNestedValues() throws {
        let items = try URLFormEncoder().queryItems(from: Self.search)
        #expect(
            Self.pairs(items) == [
                "archived=false", "filter[owner]=apple", "filter[stars]=5", "since=2023-11-14T22:13:20Z",
                "tags[]=a", "tags[]=b", "term=swift lang",
            ])
    }

    @Test func aDecimalIsWrittenAsTheNumberItIs() throws {
        struct Price: Encodable {
            let amount: Decimal
            let amounts: [Decimal]
        }
        let value = Price(amount: Decimal(string: "12.5")!, amounts: [Decimal(string: "-0.001")!, 3])
        #expect(
            Self.pairs(try URLFormEncoder().queryItems(from: value)) == [
                "amount=12.5", "amounts[]=-0.001", "amounts[]=3",
            ])
    }

    @Test func theOptionsChangeArraysBooleansAndDates() throws {
        let encoder = URLFormEncoder(arrays: .indexInBrackets, bools: .numeric, dates: .secondsSince1970)
        let items = Self.pairs(try encoder.queryItems(from: Self.search))
        #expect(items.contains("tags[0]=a") && items.contains("tags[1]=b"))
        #expect(items.contains("archived=0"))
        #expect(items.contains("since=1700000000.0"))
        let repeated = Self.pairs(try URLFormEncoder(arrays: .noBrackets).queryItems(from: Self.search))
        #expect(repeated.filter { $0.hasPrefix("tags=") } == ["tags=a", "tags=b"])
        let milliseconds = Self.pairs(try URLFormEncoder(dates: .millisecondsSince1970).queryItems(from: Self.search))
        #expect(milliseconds.contains("since=1700000000000"))
    }

    @Test func aDictionaryAlwaysGivesTheSameOrder() throws {
        let items = try URLFormEncoder().queryItems(from: ["z": "1", "a": "2", "m": "3"])
        #expect(Self.pairs(items) == ["a=2", "m=3", "z=1"])
    }

    @Test func aValueThatIsNotKeyedIsRefusedWithATypedError() {
        #expect(throws: EncodingError.self) { try URLFormEncoder().queryItems(from: ["a", "b"]) }
        #expect(throws: EncodingError.self) { try URLFormEncoder().queryItems(from: 42) }
    }

    @Test func theItemsGoOutEscapedInTheQueryAndInAFormBody() async throws {
        // Given
        let mock = MockTransport { request in (HTTPResponse(status: 200), Data()) }
        let client = NetworkClient(
            configuration: .init(baseURL: URL(string: "https://api.example.com/v1")!, transport: mock))
        let items = try URLFormEncoder().queryItems(from: Filter(owner: "a&b c", stars: 5))
        // When
        _ = try await client.send(NetworkRequest<Data>(path: "/search", query: items))
        _ = try await client.send(NetworkRequest<Data>(.post, path: "/search", body: .form(items)))
        // Then
        let sent = mock.recordedRequests
        #expect(sent.first?.request.path == "/v1/search?owner=a%26b%20c&stars=5")
        #expect(sent.last?.bodyText == "owner=a%26b+c&stars=5")
    }
}
