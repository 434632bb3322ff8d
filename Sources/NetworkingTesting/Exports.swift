// NetworkingTesting brings the fixture transport, recording and drift reports of NetworkingFixtures with its mocks
// and test clock, so a test target needs one import.
@_exported import NetworkingFixtures
