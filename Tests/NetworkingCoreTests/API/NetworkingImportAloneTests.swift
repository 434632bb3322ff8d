import Networking
import Testing

/// The guides' samples begin with `import Networking` alone: it brings Foundation's types the API speaks in, and on
/// Linux FoundationNetworking's `URLRequest` (Plugins.md's legacy signer takes one). This file imports nothing else.
@Suite struct NetworkingImportAloneTests {
    @Test func foundationsTypesComeWithTheUmbrellaModule() throws {
        let url = try #require(URL(string: "https://api.example.com/v1/items"))
        let request = URLRequest(url: url)
        let built = HTTPRequest(url: url)
        #expect(request.url == built.url)
        #expect(Data("a".utf8).count == 1 && Date(timeIntervalSince1970: 0).timeIntervalSince1970 == 0)
    }
}
