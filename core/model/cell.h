#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace dreamrsi {

/// The fail-class vocabulary of docs/tree-format.md#fail-classes. Unknown strings are kept as they are.
namespace FailClass {
inline constexpr auto Ok = "ok";
inline constexpr auto Compile = "compile";
inline constexpr auto Runtime = "runtime";
inline constexpr auto Timeout = "timeout";
inline constexpr auto Correctness = "correctness";
inline constexpr auto Resource = "resource";
inline constexpr auto Env = "env";
inline constexpr auto Agent = "agent";
/// The eight known classes, in the order of docs/tree-format.md#fail-classes.
QStringList known();
bool isKnown(const QString &failClass);
} // namespace FailClass

/// One discovery attempt: attempt `attempt` of branch `branch`.
///
/// All optional fields of docs/tree-format.md#cell-fields are already resolved to their defaults
/// (see TreeJson::parse): `evaluated` and `failClass` always hold a value.
/// Keys the format does not name (proposal, program, metrics, …) live in
/// `payload`, untouched.
struct Cell
{
    QString id;
    int branch = 0;
    int attempt = 0;
    qint64 seq = 0;
    std::optional<double> score;
    bool evaluated = false;
    std::optional<bool> valid;
    QString failClass;
    std::optional<QString> error;
    std::optional<qint64> nValid;
    std::optional<qint64> nTotal;
    QStringList tags;
    QJsonObject payload;

    /// e(v) = max(score, 0) for a finite score, else 0.
    double effectiveScore() const;
    /// True when evaluated, no error and fail class "ok" (docs/policy-api.md#helpers isSuccess).
    bool isSuccess() const;
    /// Payload text fields shown by the inspector; empty when absent.
    QString proposal() const;
    QString program() const;

    friend bool operator==(const Cell &, const Cell &) = default;
};

} // namespace dreamrsi
