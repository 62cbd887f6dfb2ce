#pragma once

#include "policy.h"

#include "base/result.h"

#include <QString>

#include <memory>
#include <optional>

namespace dreamrsi {

/// A recipe for policy objects: a built-in C++ policy by name, or a scripted
/// policy from JavaScript source. Copyable and thread-safe to share: each
/// worker thread calls create() to get its own Policy (and, for scripts, its
/// own interpreter).
class PolicySpec
{
public:
    enum class Kind { Builtin, Script };

    /// A built-in C++ policy: "parallel_refine" or "portfolio".
    static PolicySpec builtin(const QString &name);
    /// A scripted policy; `label` names it in reports (usually the file path).
    static PolicySpec script(const QString &source, const QString &label);
    /// Parses a `--policy` argument: `builtin:NAME` or a path to a `.js`
    /// file (read now). A failure when the name is unknown or the file
    /// cannot be read.
    static Result<PolicySpec> fromArgument(const QString &argument);

    Kind kind() const { return m_kind; }
    QString label() const { return m_label; }
    QString builtinName() const { return m_builtinName; }
    QString source() const { return m_source; }

    /// Script time limit per call (selectBatch or planGrid), default 2000 ms.
    int timeLimitMs() const { return m_timeLimitMs; }
    void setTimeLimitMs(int ms) { m_timeLimitMs = ms; }
    /// Seed of the Math.random generator, applied at every episode start.
    quint32 randomSeed() const { return m_randomSeed; }
    void setRandomSeed(quint32 seed) { m_randomSeed = seed; }

    /// A fresh policy for the calling thread; a failure for an unknown
    /// built-in, a script syntax error or no selectBatch function.
    Result<std::unique_ptr<Policy>> create() const;

private:
    /// create() for a script, in its own file (policyspecscript.cpp): the one
    /// place that brings in the JavaScript engine. `dreamrsi`'s launcher,
    /// which replays built-in policies without loading QtQml, links its own
    /// definition instead (app/cli/launcher.cpp).
    Result<std::unique_ptr<Policy>> createScripted() const;

    Kind m_kind = Kind::Builtin;
    QString m_label;
    QString m_builtinName;
    QString m_source;
    int m_timeLimitMs = 2000;
    quint32 m_randomSeed = 0x5EED1234u;
};

} // namespace dreamrsi
