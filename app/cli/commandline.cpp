#include "commandline.h"

#include <QCoreApplication>
#include <QFileDevice>
#include <QHash>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace dreamrsi::CommandLine {

namespace {

std::vector<std::shared_ptr<void>> &kept()
{
    static std::vector<std::shared_ptr<void>> objects;
    return objects;
}

} // namespace

void keepUntilExit(std::shared_ptr<void> object)
{
    kept().push_back(std::move(object));
}

bool keptUntilExit()
{
    return !kept().empty();
}

void nameApplication()
{
    QCoreApplication::setApplicationName(QStringLiteral("dreamrsi"));
    QCoreApplication::setOrganizationName(QStringLiteral("DreamRSI"));
}

int dispatch(const QString &name, const QString &shown, Command run, const QStringList &args,
             void (*printUsage)(QTextStream &))
{
    nameApplication();
    QTextStream out(stdout);
    QTextStream err(stderr);
    if (name.isEmpty() || name == QLatin1String("--help") || name == QLatin1String("help")) {
        printUsage(name.isEmpty() ? err : out);
        return name.isEmpty() ? 2 : 0;
    }
    if (!run) {
        err << "dreamrsi: unknown command '" << shown << "'\n";
        printUsage(err);
        return 2;
    }
    return finish(run(args, out, err), out, err);
}

int finish(int rc, QTextStream &out, QTextStream &err)
{
    out.flush();
    err.flush();
#if !defined(__SANITIZE_ADDRESS__)
    if (keptUntilExit()) {
        // Output written to the file below a stream (a replay's JSON) may
        // still sit in the file's own buffer.
        for (QTextStream *stream : {&out, &err}) {
            if (auto *file = qobject_cast<QFileDevice *>(stream->device()))
                file->flush();
        }
        std::fflush(stdout);
        std::fflush(stderr);
        std::_Exit(rc);
    }
#endif
    return rc;
}

namespace {

QStringList namesOf(const char *names)
{
    return QString::fromLatin1(names).split(QLatin1Char(','), Qt::SkipEmptyParts);
}

/// The option's name in an argument: "--out=x" and "-out" give "out".
QString nameIn(const QString &argument)
{
    qsizetype start = 0;
    while (start < argument.size() && start < 2 && argument.at(start) == QLatin1Char('-'))
        ++start;
    QString name = argument.mid(start);
    const qsizetype eq = name.indexOf(QLatin1Char('='));
    return eq < 0 ? name : name.left(eq);
}

/// The argument as typed (up to any "=value") that named option `name`.
QString typedArgument(const QStringList &args, const QString &name)
{
    for (const QString &a : args) {
        if (a.startsWith(QLatin1Char('-')) && a != QLatin1String("--") && nameIn(a) == name) {
            const qsizetype eq = a.indexOf(QLatin1Char('='));
            return eq < 0 ? a : a.left(eq);
        }
    }
    return QStringLiteral("--") + name;
}

const QCommandLineOption *optionNamed(const QList<QCommandLineOption> &options, const QString &name)
{
    for (const QCommandLineOption &o : options) {
        if (o.names().contains(name))
            return &o;
    }
    return nullptr;
}

} // namespace

QCommandLineOption value(const char *names, const char *valueName)
{
    return QCommandLineOption(namesOf(names), QString(), QString::fromLatin1(valueName));
}

QCommandLineOption flag(const char *names)
{
    return QCommandLineOption(namesOf(names));
}

Outcome parse(QCommandLineParser &parser, const QList<QCommandLineOption> &options, const QStringList &args,
              Problem *problem)
{
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help.")); // the text helpText() prints
    parser.addOptions(options);
    parser.addOption(help);
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsOptions);
    const bool parsed = parser.parse(QStringList{QStringLiteral("dreamrsi")} + args);
    if (parser.isSet(help))
        return Outcome::Help;
    if (parsed)
        return Outcome::Run;
    problem->message = parser.errorText();
    const QStringList unknown = parser.unknownOptionNames();
    if (!unknown.isEmpty()) {
        problem->kind = Problem::Kind::UnknownOption;
        problem->argument = typedArgument(args, unknown.first());
        return Outcome::Error;
    }
    // Only the last argument can lack its value: any other takes the next one.
    const QString last = args.value(args.size() - 1);
    const QCommandLineOption *option = last.startsWith(QLatin1Char('-')) ? optionNamed(options, nameIn(last)) : nullptr;
    if (option && !option->valueName().isEmpty() && !last.contains(QLatin1Char('='))) {
        problem->kind = Problem::Kind::MissingValue;
        problem->argument = last;
        return Outcome::Error;
    }
    problem->kind = Problem::Kind::Other;
    for (const QString &a : args) {
        const QCommandLineOption *o = a.startsWith(QLatin1Char('-')) ? optionNamed(options, nameIn(a)) : nullptr;
        if (o && o->valueName().isEmpty() && a.contains(QLatin1Char('='))) {
            problem->argument = a;
            break;
        }
    }
    return Outcome::Error;
}

QList<Given> inOrder(const QCommandLineParser &parser, const QList<QCommandLineOption> &options)
{
    // Each option's values are asked of the parser once: a replay names a
    // thousand worlds, and asking per occurrence copied the whole list each
    // time (milliseconds before the first world).
    struct Values
    {
        QStringList values;
        qsizetype used = 0; ///< read so far
    };
    QHash<QString, const QCommandLineOption *> optionOf; // by the name as typed
    QHash<QString, Values> valuesOf;                      // by the option's first name
    const QStringList typedNames = parser.optionNames();
    QList<Given> given;
    given.reserve(typedNames.size());
    for (const QString &typed : typedNames) {
        auto known = optionOf.constFind(typed);
        if (known == optionOf.cend())
            known = optionOf.insert(typed, optionNamed(options, typed));
        const QCommandLineOption *option = *known;
        if (!option)
            continue; // --help
        Given g;
        g.name = option->names().constFirst();
        g.typed = typed;
        if (!option->valueName().isEmpty()) {
            auto values = valuesOf.find(g.name);
            if (values == valuesOf.end())
                values = valuesOf.insert(g.name, Values{parser.values(g.name)});
            g.value = values->values.value(values->used++);
        }
        given.append(std::move(g));
    }
    return given;
}

QString describe(const Problem &problem)
{
    if (problem.kind == Problem::Kind::MissingValue)
        return QStringLiteral("%1 needs a value").arg(problem.argument);
    return QStringLiteral("unknown option '%1'").arg(problem.argument);
}

int runtimeError(QTextStream &err, const QString &message)
{
    err << "error: " << message << '\n';
    return 1;
}

} // namespace dreamrsi::CommandLine
