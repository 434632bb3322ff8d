import Foundation
import NetworkingHTTP

/// A behavior's setting that cannot work, such as a zero limit or a ratio above 1, found when the settings are built.
///
/// Settings types of the resilience and HTTP behaviors validate every value in their throwing initializers, so a bad
/// value stops the app where it is configured, with a message naming the behavior, the setting and the rule:
/// ```swift
/// do {
///     _ = try ConcurrencyLimitSettings(maximumInFlight: 0)
/// } catch let error as BehaviorSettingsError {
///     print(error)  // ConcurrencyLimitSettings.maximumInFlight is 0; it must be at least 1
/// }
/// ```
/// The factories that take no settings use defaults that are always valid and do not throw.
public struct BehaviorSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The settings type, such as `CircuitBreakerSettings`.
    public let settings: String
    /// The setting, such as `failureRatio`.
    public let setting: String
    /// The value given, as text.
    public let value: String
    /// The rule it broke, such as `it must be between 0 and 1 (excluded)`.
    public let requirement: String

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - settings: The settings type's name.
    ///   - setting: The setting's name.
    ///   - value: The value given, as text.
    ///   - requirement: The rule it broke, phrased to follow a semicolon.
    public init(settings: String, setting: String, value: String, requirement: String) {
        self.settings = settings
        self.setting = setting
        self.value = value
        self.requirement = requirement
    }

    /// `ConcurrencyLimitSettings.maximumInFlight is 0; it must be at least 1`.
    public var description: String { "\(settings).\(setting) is \(value); \(requirement)" }

    /// Throws unless `value` is at least `minimum`.
    package static func require<T: Comparable>(
        _ value: T, atLeast minimum: T, _ setting: String, in settings: String
    ) throws {
        guard value >= minimum else {
            throw BehaviorSettingsError(
                settings: settings, setting: setting, value: "\(value)", requirement: "it must be at least \(minimum)")
        }
    }

    /// Throws unless `value` is greater than `minimum`.
    package static func require<T: Comparable>(
        _ value: T, above minimum: T, _ setting: String, in settings: String
    ) throws {
        guard value > minimum else {
            throw BehaviorSettingsError(
                settings: settings, setting: setting, value: "\(value)", requirement: "it must be more than \(minimum)")
        }
    }
}

extension BehaviorSettingsError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
