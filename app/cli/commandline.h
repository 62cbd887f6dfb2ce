#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>
#include <QString>
#include <QStringList>
#include <QTextStream>

#include <memory>
#include <optional>
#include <type_traits>

namespace dreamrsi::CommandLine {

/// Keeps what a command built for its output (a replay's result and its
/// JSON) alive until the process ends. `dreamrsi` then ends with std::_Exit
/// once its output is flushed, and the kernel takes the memory back at once:
/// freeing a 1,000-world replay's result block by block took about 10 ms of
/// a 100 ms run. In-process callers (the tests) free it at their normal exit.
void keepUntilExit(std::shared_ptr<void> object);
/// Whether a command kept anything until the exit.
bool keptUntilExit();

/// Names the application "dreamrsi" of "DreamRSI", as both of dreamrsi's
/// entry points do before a command runs (the names place its cache and
/// settings).
void nameApplication();

/// What `dreamrsi` does when a command returned `rc`: flushes `out` and
/// `err`, and when the command kept anything until the exit, ends the
/// process here (std::_Exit, after flushing the files below the streams).
/// Returns `rc` otherwise, and always under AddressSanitizer, whose leak
/// check runs at a normal exit.
int finish(int rc, QTextStream &out, QTextStream &err);

/// What a dispatcher (`dreamrsi`'s command module, dreamrsi-bench) does
/// with the command it looked up by `name`: names the application, answers
/// no name, `--help` or `help` with `printUsage` (on stderr with status 2
/// for no name, else on stdout with 0), a name it does not know (`run` null)
/// with "unknown command '`shown`'" and the usage (status 2), and runs the
/// command otherwise, finished as every command is (finish()).
using Command = int (*)(const QStringList &args, QTextStream &out, QTextStream &err);
int dispatch(const QString &name, const QString &shown, Command run, const QStringList &args,
             void (*printUsage)(QTextStream &));

// The one way the commands under app/cli read their arguments: a
// QCommandLineParser with --help/-h added, single-dash words read as long
// options (`-o` of export, `-world` reads as --world), options allowed after
// positional arguments. Each command keeps its own usage text and its own
// words for a usage error; this file only says what went wrong.

/// What parse() found.
enum class Outcome {
    Run,   ///< the arguments parsed; the command runs
    Help,  ///< --help or -h was given: print the usage on stdout, exit 0
    Error, ///< a usage error, described by the Problem: exit 2
};

/// A usage error found by the parser, with the argument as it was typed.
struct Problem
{
    enum class Kind {
        UnknownOption, ///< an option the command does not have
        MissingValue,  ///< a value option was the last argument
        Other,         ///< anything else (e.g. a value given to a flag)
    };
    Kind kind = Kind::Other;
    QString argument; ///< as given: "--frobnicate", "-x", "--world"
    QString message;  ///< QCommandLineParser's own description
};

/// A value option, e.g. value("world", "FILE"); names may list aliases ("o,out").
QCommandLineOption value(const char *names, const char *valueName = "VALUE");

/// An option without a value.
QCommandLineOption flag(const char *names);

/// Adds `options` and the help option to `parser` and parses `args` (the
/// arguments after the command's name). Help wins over every other problem.
Outcome parse(QCommandLineParser &parser, const QList<QCommandLineOption> &options, const QStringList &args,
              Problem *problem);

/// The usual words for a usage error found by parse(): "--x needs a value"
/// or "unknown option '--x'".
QString describe(const Problem &problem);

/// parse() with the usual answers: on --help prints `usage` on `out` and
/// gives 0; on a usage error gives usageError(describe(problem)) (which
/// prints and returns the exit status, 2); gives nothing when the command
/// should run. `usage` is a text, or a function giving it once the parser
/// is complete (a command printing QCommandLineParser::helpText()).
template<typename Usage, typename UsageError>
std::optional<int> parseOrAnswer(QCommandLineParser &parser, const QList<QCommandLineOption> &options,
                                 const QStringList &args, const Usage &usage, QTextStream &out, UsageError usageError)
{
    Problem problem;
    switch (parse(parser, options, args, &problem)) {
    case Outcome::Help:
        if constexpr (std::is_invocable_v<const Usage &>)
            out << usage();
        else
            out << usage;
        return 0;
    case Outcome::Error:
        // A command whose wording depends on the kind of problem takes the Problem itself.
        if constexpr (std::is_invocable_v<UsageError, const Problem &>)
            return usageError(problem);
        else
            return usageError(describe(problem));
    case Outcome::Run: break;
    }
    return std::nullopt;
}

/// A runtime error: "error: MESSAGE" on `err`; returns the exit status 1.
int runtimeError(QTextStream &err, const QString &message);

/// One option as it was given.
struct Given
{
    QString name;  ///< the option's first name: "o" for both `-o` and `--out` of value("o,out")
    QString typed; ///< the name as it was typed, without dashes: "out" for `--out`
    QString value; ///< empty for a flag
};

/// The options found by the last parse, in the order they were given (a
/// repeated option once per use), each with its value. QCommandLineParser
/// keeps the values of one option in order but not the order across
/// options; commands whose options pair up (plot's --project and --label)
/// or whose first bad value is the one to report read them this way.
QList<Given> inOrder(const QCommandLineParser &parser, const QList<QCommandLineOption> &options);

} // namespace dreamrsi::CommandLine
