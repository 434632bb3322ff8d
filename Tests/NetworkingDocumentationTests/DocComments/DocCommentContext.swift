import Foundation
import Networking
import NetworkingTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The names the doc-comment samples of Sources/ take as given (a base URL, a client, a user type, a token store),
// declared once so that DocCommentSamples.swift compiles every sample as it is written. Never run.

struct User: Codable, Sendable, Equatable {
    let id: Int
    let name: String
}
struct NewUser: Codable, Sendable, Equatable { let name: String }
struct Country: Codable, Sendable { let name: String }
struct Repo: Codable, Sendable { let name: String }
struct Receipt: Codable, Sendable { let id: String }
struct Payment: Codable, Sendable { let amount: Int }

let url = URL(string: "https://api.example.com/v1")!
let api = URL(string: "https://api.example.com/v1")!
let apiURL = URL(string: "https://api.example.com/v1")!
let fixturesURL = URL(fileURLWithPath: "/tmp/Fixtures")
let destination = URL(fileURLWithPath: "/tmp/download.bin")
let movieURL = URL(fileURLWithPath: "/tmp/movie.mov")
let thumbnail = Data()
let payload = Data()
let chatURL = URL(string: "https://api.example.com/v1/chat")!
let uploadURL = URL(string: "https://api.example.com/v1/files/1")!
let checksum = "1"
let useFixtures = false
let transport: any HTTPTransport = MockTransport()
let liveTransport: any HTTPTransport = MockTransport()
let mock = MockTransport()
let client = NetworkClient(baseURL: url, transport: MockTransport())
let tokens = InMemoryTokenStore("token")
let apiKeyStore = InMemoryTokenStore("key")
let jar = InMemoryCookieJar()
let now = Date()
let savedToken = "token"
let savedExpiry = Date()
let key = "key"
let chosen: any RequestBehavior = EmptyBehavior()
let request = NetworkRequest<Data>(path: "/items")
let payment = NetworkRequest<Receipt>(.post, path: "/payments", body: .json(Payment(amount: 1)))
let chunks = AsyncThrowingStream<Data, any Error> { $0.finish() }
let context = RequestContext()
let refresher = Refresher()
let metrics = Metrics()
let cookie = Cookie(SetCookie.parse("sid=31d4")!, from: url, at: now)!
let loginResponse = LoginResponse(accessToken: "token")
let session = Session()
let login = NetworkRequest<String>(.post, path: "/login")
let pay = NetworkRequest<Receipt>(.post, path: "/payments", body: .json(Payment(amount: 1)))
let method = HTTPMethod.get
let error: any Error = CancellationError()

func persist<Value>(_ value: Value) {}
func handle(_ chunk: Data) {}
func handle(_ message: WebSocketMessage) {}
func reply(to line: Data) -> Data { line }
func connect(lastEventID: String?) async throws -> (Int, AsyncThrowingStream<Data, any Error>) { (200, chunks) }
func report(_ error: any Error) {}
func showNotFound() {}
func showSpinner(_ busy: Bool) {}
func openEventStream(lastEventID: String?) async throws -> AsyncThrowingStream<Data, any Error> { chunks }

/// A counter of attempts, as a sample's own observer would be.
final class LockedCounter: TransferObserver {
    private let box = LockedBox(0)
    func attemptStarted(_ request: HTTPRequest) -> (any AttemptObserver)? {
        box.withLock { $0 += 1 }
        return nil
    }
}

/// An app's metrics client.
struct Metrics: Sendable {
    func gauge(_ name: String, _ value: Int) {}
}

/// An app's login answer, session and keychain.
struct LoginResponse: Sendable { let accessToken: String }
struct Session: Sendable {
    func validAccessToken() async throws -> String { "token" }
}
struct Keychain: Sendable {
    func read(_ key: String) throws -> String? { nil }
}
enum AuthAPI {
    static func refresh() async throws -> AccessCredential { AccessCredential(token: "new") }
}

/// A signer, as an app's own would be.
struct Signer: Sendable {
    func signature(for request: HTTPRequest) async throws -> String { "signature" }
}
let signer = Signer()

/// The activity indicator of an app.
@MainActor final class Spinner {
    var isHidden = true
}
@MainActor let spinner = Spinner()

/// Something a sample waits on, such as a credential refresh of an app's own.
struct Refresher: Sendable {
    func freshToken() async throws -> String { "token" }
}
