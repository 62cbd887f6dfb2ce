#pragma once

#include <QStringList>
#include <QTextStream>

namespace dreamrsi {

// `dreamrsi bench NAME`: the benchmarks that print figures (speed and memory
// goals live here, never in timed test assertions). They are their own
// library, dreamrsi_bench, apart from the product's commands (app/cli), in
// the executable dreamrsi-bench (main.cpp), which `dreamrsi bench` becomes
// and which is built but never installed. The benchmarks that draw (`bench
// livetree`, `bench islands`) are in app/bench/render. Each returns the exit
// status as every command does (commands.h).

int runBenchTreeCommand(const QStringList &args, QTextStream &out, QTextStream &err);
int runBenchSandboxCommand(const QStringList &args, QTextStream &out, QTextStream &err);
int runBenchStoreCommand(const QStringList &args, QTextStream &out, QTextStream &err);
int runBenchRoundCommand(const QStringList &args, QTextStream &out, QTextStream &err);
int runBenchReplayCommand(const QStringList &args, QTextStream &out, QTextStream &err);
int runBenchDreamCommand(const QStringList &args, QTextStream &out, QTextStream &err);
int runBenchImportCommand(const QStringList &args, QTextStream &out, QTextStream &err);
/// `dreamrsi bench compare`: whole-process times against the Python reference of docs/replay.md.
int runBenchCompareCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// What `bench compare` runs (its options); `bench replay` runs it too.
struct CompareOptions
{
    int worlds = 1000;
    int runs = 3;
    int seed = 1;
    int threads = 0;
    QString reference;      ///< tests/replay_reference; null: found from the source tree
    QString python = QStringLiteral("python3");
    QString before;         ///< an older dreamrsi to time too
    QStringList generators{QStringLiteral("synth"), QStringLiteral("python")};
    /// False: without the Python reference or an interpreter, dreamrsi's
    /// times alone (the synth worlds; the scripted rows need the reference's scripts).
    bool requirePython = true;
};
int benchCompare(const CompareOptions &options, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
