#pragma once

#include "policy/policyspec.h"
#include "policy/scriptlimits.h"
#include "store/storetypes.h"

#include <QString>

#include <optional>

namespace dreamrsi {

/// The one rule by which a stored policy version becomes a runnable policy.
///
/// A version runs its stored code as JavaScript — the code a researcher sees
/// is the code that runs — with one exception that changes no number: when
/// the stored code is, byte for byte, the JavaScript twin of a built-in
/// (BuiltinPolicies::javaScriptSource), the C++ built-in runs instead. The
/// twins give identical replay results (tst_policy builtinTwinsAgree checks
/// every built-in on every synthetic regime), the C++ one only faster. The
/// version's name and origin play no part: an edited "builtin:greedy" whose
/// code differs runs as the script it now is.
namespace ProjectPolicies {

/// The built-in whose JavaScript twin `code` is exactly, if any.
std::optional<QString> builtinTwinOf(const QString &code);
/// How `version` runs in the replay engine (a script under `limits.callMs`
/// per call; its memory is bounded where it runs: VersionReplayJob::Where).
PolicySpec specFor(const PolicyVersion &version, const ScriptLimits &limits = {});
/// The same rule for a child `dreamrsi replay` process: "builtin:NAME" for a
/// twin, empty when the code must be passed as a script.
QString processArgumentFor(const PolicyVersion &version);
/// The built-in `name` as a version (id 0, not stored): named "builtin:NAME",
/// holding its JavaScript twin, of origin Builtin. The one place such a
/// version is made (docs/architecture.md, "decided once").
PolicyVersion builtinVersion(const QString &name);
/// The versions a project (or a fresh workbench) starts with: builtinVersion()
/// of every built-in.
QList<PolicyVersion> builtinVersions();

/// The short hash that names a version of a built-in's code: the first 8 hex
/// digits of the SHA-256 of its UTF-8 bytes.
QString codeHash(const QString &code);

/// What `--policy builtin:NAME` means in a project: today's built-in. It is
/// the stored version named "builtin:NAME" or "builtin:NAME@<hash>" that
/// holds today's code (BuiltinPolicies::javaScriptSource) byte for byte;
/// when none does, a new version (id 0, not stored yet) named "builtin:NAME"
/// if that name is free, else "builtin:NAME@<codeHash>": a project of an
/// older build keeps its "builtin:NAME" (the code the built-in had then) and
/// that version's results, and today's built-in is stored beside it, never
/// an error. nullopt for an unknown built-in.
std::optional<PolicyVersion> currentBuiltin(const QList<PolicyVersion> &stored, const QString &name);

/// The stored versions named exactly "builtin:NAME" whose code is no longer
/// the built-in's (a project, or the bundled demo, made before the built-in changed).
QList<PolicyVersion> staleBuiltins(const QList<PolicyVersion> &stored);

} // namespace ProjectPolicies
} // namespace dreamrsi
