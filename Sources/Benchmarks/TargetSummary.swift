import Foundation

/// The machine-readable end of `make bench`: one line per target, with stable names,
/// `target NAME: VALUE UNIT (goal OP NUMBER) met|MISSED`; a ratio kept as information, with no goal to meet any more
/// (the one-caller ratios against raw `URLSession` and the bare engine, issue 43), prints
/// `target NAME: VALUE UNIT (reference OP NUMBER) (reported)`, so a MISSED line is always a goal still open.
struct TargetSummary {
    /// One target: its name, the measured value, and the goal it is held against.
    struct Target {
        let name: String
        let value: Double
        let unit: String
        let goal: Double
        let atLeast: Bool
        let digits: Int
        /// Whether the figure is information only: `goal` is then a reference, neither met nor missed.
        var reported = false

        var met: Bool { atLeast ? value >= goal : value <= goal }

        var line: String {
            let shown = String(format: "%.\(digits)f", value)
            let goalText = goal == goal.rounded() ? String(Int(goal)) : String(format: "%.2f", goal)
            let comparison = "\(atLeast ? ">=" : "<=") \(goalText)"
            if reported { return "target \(name): \(shown) \(unit) (reference \(comparison)) (reported)" }
            return "target \(name): \(shown) \(unit) (goal \(comparison)) \(met ? "met" : "MISSED")"
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

    /// Adds a ratio kept as information: printed beside `reference` (`atLeast`: the value was to reach it), never as
    /// met or missed.
    mutating func reported(
        _ name: String, _ value: Double, _ unit: String, reference: Double, atLeast: Bool = true, digits: Int = 3
    ) {
        targets.append(
            Target(
                name: name, value: value, unit: unit, goal: reference, atLeast: atLeast, digits: digits, reported: true)
        )
    }

    var text: String { targets.map(\.line).joined(separator: "\n") }
}
