#pragma once

#include <QString>

namespace dreamrsi {

/// Which policy a live round runs, as a person or a command line chose it
/// (docs/online.md, `round --policy`): the newest approved version, a
/// built-in, manual exploration, or a stored version. The choice is typed
/// once here; the Launch Round dialog builds it, `round` parses it from its
/// argument, and RoundPolicy::resolve turns it into a stored version and a
/// runnable policy (ProjectPolicies::specFor, the one rule for how a version
/// runs).
class PolicyChoice
{
public:
    enum class Kind {
        LatestApproved, ///< the newest approved version, else builtin:portfolio
        Builtin,        ///< a built-in policy by name
        Manual,         ///< a person picks every batch (docs/steering.md)
        Stored,         ///< a stored version by name or id
    };

    /// The newest approved version (the default).
    PolicyChoice() = default;
    static PolicyChoice latestApproved() { return {}; }
    /// A built-in by its name without the prefix: "portfolio".
    static PolicyChoice builtin(const QString &name) { return PolicyChoice(Kind::Builtin, name); }
    static PolicyChoice manual() { return PolicyChoice(Kind::Manual, QString()); }
    /// A stored version: its name, or its id in decimal.
    static PolicyChoice stored(const QString &nameOrId) { return PolicyChoice(Kind::Stored, nameOrId); }
    /// `--policy`'s text: empty for the newest approved version,
    /// "builtin:NAME", "manual" (or "builtin:manual"), else a stored
    /// version's name or id. Whether that version or built-in exists is
    /// the project's to say (RoundPolicy::resolve).
    static PolicyChoice fromArgument(const QString &argument);
    /// The inverse of fromArgument.
    QString toArgument() const;

    Kind kind() const { return m_kind; }
    /// The built-in's name, or the stored version's name or id; empty otherwise.
    const QString &name() const { return m_name; }
    bool operator==(const PolicyChoice &other) const = default;

private:
    PolicyChoice(Kind kind, QString name)
        : m_kind(kind)
        , m_name(std::move(name))
    {
    }

    Kind m_kind = Kind::LatestApproved;
    QString m_name;
};

} // namespace dreamrsi
