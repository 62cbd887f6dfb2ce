#pragma once

#include <QList>
#include <QString>
#include <QtGlobal>

#include "base/result.h"
#include "replay/probes.h"
#include "replay/worldmodel.h"
#include "store/storetypes.h"

class QCommandLineParser;

namespace dreamrsi::OptionValues {

// Number-valued command-line options, read one way by every command: a
// rejected value gives a message naming the option and what was given.

/// A finite number in [low, high]; a failure otherwise.
Result<double> number(const QString &option, const QString &text, double low, double high);

/// A whole number in [low, high]; a failure otherwise.
Result<qint64> integer(const QString &option, const QString &text, qint64 low, qint64 high);

/// `--rule capped|widened|uncertain|anchored` (docs/online.md#imagination-rules).
Result<ImaginationRule> imaginationRule(const QString &option, const QString &text);

/// `--probe auto|early|off|N` (docs/online.md#probes).
Result<ProbeSetting> probe(const QString &option, const QString &text);

/// `on` or `off` (`--floor`, docs/online.md#a-proposal-must-keep-the-hardest-world).
Result<bool> onOff(const QString &option, const QString &text);

/// `--policy builtin:NAME` of round, loop and the counterfactual loop: the
/// usage error when NAME is no built-in policy, else empty (a built-in name
/// is known before any project or file is read).
QString unknownBuiltinPolicy(const QString &name);

/// A comma-separated list of β values, each in [0, 1], not empty.
Result<QList<double>> betas(const QString &option, const QString &text);

/// The replay-configuration flags (W, λ, the β grid, K, the valuation, C, the rule),
/// read one way by every command that takes them (`project config`,
/// `replay --project`, `dream`, `loop`, `loop --worlds`, `imagine`): the same
/// bounds (store/replaybounds.h) and messages. A command names the flags it
/// registered; a flag whose name is empty is one it does not take.
struct ReplayConfigFlags
{
    QString workers = QStringLiteral("workers");
    QString lambda = QStringLiteral("lambda");
    QString betas = QStringLiteral("betas");
    QString rounds = QStringLiteral("rounds");
    QString valuation = QStringLiteral("valuation");
    QString completions = QStringLiteral("completions");
    /// `--rule capped|widened|uncertain|anchored`: off unless a command names it (`imagine` and
    /// `loop --worlds` read their own, which is not the project's).
    QString rule;
    bool roundsNone = false; ///< `--rounds none` (or 0, unless zeroRounds) removes the limit
    /// `--rounds 0` is the limit K = 0 (docs/replay.md: the episode stops
    /// before its first round, 0 calls), not "no limit": `replay --world`.
    bool zeroRounds = false;
    bool oracle = false;     ///< `--valuation oracle` is accepted (the counterfactual loop)

    /// What the given flags ask for.
    struct Read
    {
        ReplayConfigOverrides overrides;
        bool clearRounds = false; ///< `--rounds none`
        bool oracle = false;      ///< `--valuation oracle`
    };
    /// Reads the flags that were given; a failure naming the flag, its bounds and the value.
    Result<Read> read(const QCommandLineParser &parser) const;
};

} // namespace dreamrsi::OptionValues
