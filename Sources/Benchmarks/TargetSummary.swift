import Foundation

/// The machine-readable end of `make bench`: one line per target, with stable names,
/// `target NAME: VALUE UNIT (goal OP NUMBER) met|MISSED`.
struct TargetSummary {
    /// One target: its name, the measured value, and the goal it is held against.
    struct Target {
        let name: String
        let value: Double
        let unit: String
        let goal: Double
        let atLeast: Bool
        let digits: Int

        var met: Bool { atLeast ? value >= goal : value <= goal }

        var line: String {
            let shown = String(format: "%.\(digits)f", value)
            let goalText = goal == goal.rounded() ? String(Int(goal)) : String(format: "%.2f", goal)
            return
                "target \(name): \(shown) \(unit) (goal \(atLeast ? ">=" : "<=") \(goalText)) \(met ? "met" : "MISSED")"
        }
    }

    var targets: [Target] = []

    /// Adds a target whose value must reach `goal` at least.
    mutating func atLeast(_ name: String, _ value: Double, _ unit: String, _ goal: Double, digits: Int = 3) {
        targets.append(Target(name: name, value: value, unit: unit, goal: goal, atLeast: true, digits: digits))
    }

    /// Adds a target whose value must stay at or under `goal`.
    mutating func atMost(_ name: String, _ value: Double, _ unit: String, _ goal: Double, digits: Int = 0) {
        targets.append(Target(name: name, value: value, unit: unit, goal: goal, atLeast: false, digits: digits))
    }

    var text: String { targets.map(\.line).joined(separator: "\n") }
}
