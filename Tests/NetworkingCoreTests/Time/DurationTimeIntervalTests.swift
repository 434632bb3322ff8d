import Foundation
import Networking
import Testing
import NetworkingTestSupport

@Suite struct DurationTimeIntervalTests {
    @Test(arguments: [
        (Duration.seconds(2), 2.0), (.milliseconds(1500), 1.5), (.microseconds(250), 0.00025), (.zero, 0),
        (.seconds(-3), -3),
    ])
    func aDurationReadsAsSecondsForFoundation(duration: Duration, seconds: Double) {
        #expect(abs(duration.timeInterval - seconds) < 1e-12)
    }
}
