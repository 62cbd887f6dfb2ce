#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace dreamrsi {

/// One tunable of a policy script: a top-level line
/// `const NAME = <number>;` (also `var`/`let`) whose NAME is upper case,
/// with an optional annotation in the comment that follows on the line:
/// `range [lo, hi]` (numeric, integer when lo, hi and the value are
/// integers) or `choice a|b|c` (a structural alternative picked by value).
/// Without an annotation an integer stays ≥ 0 when it is ≥ 0 and a real
/// keeps its sign. A comment that begins with `learned` is reported in
/// `learned` (older portfolio.js floors had it); the built-in improver
/// searches such numbers like any other: nothing it proposes is one-way.
struct PolicyTunable
{
    QString name;
    double value = 0.0;
    bool integer = false;             ///< the literal has no fraction, nor do the range bounds
    std::optional<double> low;        ///< from `range [lo, hi]`
    std::optional<double> high;
    QList<double> choices;            ///< from `choice a|b|c`; empty for a numeric tunable
    bool learned = false;             ///< `// learned …` (searched like the others; see above)
    qsizetype literalStart = 0;       ///< offset of the number literal in the source
    qsizetype literalLength = 0;
};

namespace PolicyTunables {

/// The tunables of `source`, in source order.
QList<PolicyTunable> parse(const QString &source);
/// `source` with the literal of `tunable` replaced by `value` (shortest
/// round-trip form; integers without a fraction). Offsets of the other
/// tunables of the same parse shift: apply several edits from the end.
QString withValue(const QString &source, const PolicyTunable &tunable, double value);
/// The literal written for `value` (integers without a fraction).
QString literal(double value, bool integer);

/// One entry of a per-direction table.
struct DirectionValue
{
    QString direction;                ///< the NAME of `direction:NAME`; "*" = any direction not listed
    double value = 0.0;
};
/// Whether `source` has a top-level `const TABLE = {…};` line (an object
/// literal on one line; also `var`/`let`), TABLE being `table`
/// (portfolio.js: DIRECTION_PRIORITY, DIRECTION_DEEPEST_GAIN).
bool hasDirectionTable(const QString &source, const QString &table);
/// `source` with that object literal replaced by `entries` (a JSON object,
/// keys in the given order, values rounded to 4 decimals); `source`
/// unchanged when it has no such line.
QString withDirectionTable(const QString &source, const QString &table, const QList<DirectionValue> &entries);

} // namespace PolicyTunables
} // namespace dreamrsi
