#pragma once

#include "replayoptions.h"
#include "replayresult.h"
#include "replayworld.h"

#include "policy/policyspec.h"

#include <QStringList>
#include <QTextStream>

#include <optional>

namespace dreamrsi {

/// The parsed arguments of `dreamrsi replay` (replay.md §6), reusable by
/// other commands (the project store's `replay --project`).
struct ReplayCommandOptions
{
    QStringList worldPaths;
    QString policyArgument;     ///< as given: a .js path or builtin:NAME
    ReplayOptions replay;
    int timeLimitMs = 2000;     ///< per script call
    quint32 seed = 0x5EED1234u; ///< Math.random seed
    bool json = false;
    QString tracePath;          ///< --trace FILE, empty when not asked
    bool progress = false;      ///< --progress: "progress D/T" lines on stderr
    QStringList unhandled;      ///< arguments this parser did not recognise (e.g. --project P)
};

/// Parses replay arguments. Unknown options are collected in `unhandled`
/// when `allowUnknown`, else reported as errors. Returns nothing and fills
/// *error (a complete message) on bad input.
std::optional<ReplayCommandOptions> parseReplayOptions(const QStringList &args, QString *error,
                                                        bool allowUnknown = false);

/// The policy of parsed options, with their time limit and seed applied,
/// checked by compiling it once. Returns nothing and fills *error (a
/// complete message) when the policy cannot be read or does not compile.
std::optional<PolicySpec> policySpecFor(const ReplayCommandOptions &options, QString *error);

/// Runs the sweep of parsed options over loaded worlds on all requested
/// threads (tracing when a trace file is asked for, printing "progress D/T"
/// lines on stderr when asked).
ReplayResult runReplay(const QList<ReplayWorld> &worlds, const PolicySpec &spec, const ReplayCommandOptions &options);

/// Runs a replay already loaded and prints it (JSON or a table) and writes the
/// trace file when asked. Returns the process exit status: 0 when every
/// sweep succeeded, 1 on any policy error or trace write failure.
int printReplayResult(const ReplayResult &result, const ReplayCommandOptions &options, QTextStream &out,
                      QTextStream &err);

/// `dreamrsi replay --world A.json … --policy P.js|builtin:NAME [--workers W]
/// [--lambda L] [--betas …] [--rounds K] [--json] [--trace FILE]
/// [--time-limit-ms MS] [--seed S] [--threads T]`.
/// Exit status: 0 ok, 1 a policy error or unreadable world, 2 usage error.
int runReplayCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi synth --out DIR --worlds N --seed S [--width W] [--depth D]
/// [--fail-rate F] [--regime NAME]`: writes synthetic worlds (see SynthWorld).
int runSynthCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi bench replay [--worlds N] [--cells C]`: episodes/s and reveals/s.
int runBenchReplayCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
