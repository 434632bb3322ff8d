#!/usr/bin/env python3
"""Fails when Sources/.swift-format holds a setting the oldest supported swift-format does not read (make portability).

`make lint` runs the toolchain's `swift format`: 6.3 here, 6.0 with Xcode 16.0 to 16.2 (the oldest Xcode the package
supports), 6.1 with Xcode 16.3 and 16.4, 6.2 with Xcode 26. A rule 6.0 does not know fails every file under
`--strict` ("Configuration contains an unrecognized rule"), and a setting whose form changed stops a version from
reading the file at all (6.1 cannot decode `"reflowMultilineStringLiterals": "never"`). So every key and rule here
must be one swift-format 6.0 reads; a setting added later stays at its default, the same in every later version,
and a rule added later is checked some other way (`@retroactive` by a grep in `make lint`). A rule absent from
"rules" is off in every version (`Context.isRuleEnabled`: `configuration.rules[name] ?? false`).

The lists below are swift-format's own, read at its tags 600.0.0 and swift-6.0-RELEASE to swift-6.0.3-RELEASE (the
same at each): `Configuration.CodingKeys` and `RuleRegistry+Generated.swift`.
Usage: format_config_check.py [CONFIGURATION]
"""
import json
import sys
from pathlib import Path

CONFIGURATION = Path(__file__).resolve().parents[2] / "Sources" / ".swift-format"

KEYS_6_0 = {
    "version", "maximumBlankLines", "lineLength", "tabWidth", "indentation", "respectsExistingLineBreaks",
    "lineBreakBeforeControlFlowKeywords", "lineBreakBeforeEachArgument", "lineBreakBeforeEachGenericRequirement",
    "prioritizeKeepingFunctionOutputTogether", "indentConditionalCompilationBlocks",
    "lineBreakAroundMultilineExpressionChainComponents", "fileScopedDeclarationPrivacy", "indentSwitchCaseLabels",
    "rules", "spacesAroundRangeFormationOperators", "noAssignmentInExpressions", "multiElementCollectionTrailingCommas",
}
RULES_6_0 = {
    "AllPublicDeclarationsHaveDocumentation", "AlwaysUseLiteralForEmptyCollectionInit", "AlwaysUseLowerCamelCase",
    "AmbiguousTrailingClosureOverload", "BeginDocumentationCommentWithOneLineSummary", "DoNotUseSemicolons",
    "DontRepeatTypeInStaticProperties", "FileScopedDeclarationPrivacy", "FullyIndirectEnum", "GroupNumericLiterals",
    "IdentifiersMustBeASCII", "NeverForceUnwrap", "NeverUseForceTry", "NeverUseImplicitlyUnwrappedOptionals",
    "NoAccessLevelOnExtensionDeclaration", "NoAssignmentInExpressions", "NoBlockComments",
    "NoCasesWithOnlyFallthrough", "NoEmptyTrailingClosureParentheses", "NoLabelsInCasePatterns",
    "NoLeadingUnderscores", "NoParensAroundConditions", "NoPlaygroundLiterals", "NoVoidReturnOnFunctionSignature",
    "OmitExplicitReturns", "OneCasePerLine", "OneVariableDeclarationPerLine", "OnlyOneTrailingClosureArgument",
    "OrderedImports", "ReplaceForEachWithForLoop", "ReturnVoidInsteadOfEmptyTuple", "TypeNamesShouldBeCapitalized",
    "UseEarlyExits", "UseExplicitNilCheckInConditions", "UseLetInEveryBoundCaseVariable", "UseShorthandTypeNames",
    "UseSingleLinePropertyGetter", "UseSynthesizedInitializer", "UseTripleSlashForDocumentationComments",
    "UseWhereClausesInForLoops", "ValidateDocumentationComments",
}


def problems(configuration):
    found = [f"{key}: a setting swift-format 6.0 (Xcode 16.0 to 16.2) does not read"
             for key in configuration if key not in KEYS_6_0]
    found += [f"rules.{rule}: a rule swift-format 6.0 does not know (every file fails under --strict)"
              for rule in configuration.get("rules", {}) if rule not in RULES_6_0]
    return found


def main(arguments):
    path = Path(arguments[0]) if arguments else CONFIGURATION
    found = problems(json.loads(path.read_text(encoding="utf-8")))
    for problem in found:
        print(f"{path}: {problem}")
    if found:
        print(f"format_config_check: {len(found)} settings that swift-format 6.0 does not read: make lint would fail"
              " or format otherwise with Xcode 16", file=sys.stderr)
        return 1
    print(f"format_config_check: every setting and rule of {path.name} is one swift-format 6.0 reads (Xcode 16 and"
          " later read it alike)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
