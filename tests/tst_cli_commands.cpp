// Every command of `dreamrsi` answers --help (exit 0, its usage on stdout,
// naming its options) and rejects bad usage with exit 2 and a message that
// names what was wrong; the shared argument reader keeps the order of
// options and reads single-dash long options.
#include "clirunsupport.h"
#include "commandline.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi;

namespace {

using Run = dreamrsi::test::TextRun;
using dreamrsi::test::runText;

QStringList words(const char *text)
{
    return QString::fromLatin1(text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

} // namespace

class TestCliCommands : public QObject
{
    Q_OBJECT
private slots:
    void help_data();
    void help();
    void usageError_data();
    void usageError();
    void readerKeepsOrder();
    void readerProblems();
};

void TestCliCommands::help_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("names"); // what the usage must mention
    QTest::addRow("validate") << words("validate --help") << words("validate FILE");
    QTest::addRow("export") << words("export --help") << words("--iteration --dir --all --bundle -o");
    QTest::addRow("import") << words("import --help") << words("--policy --name --origin --parent --bundle");
    QTest::addRow("ls") << words("ls --help") << words("iterations policies results approvals --policy");
    QTest::addRow("project") << words("project --help") << words("new info replay --name --task");
    QTest::addRow("project new") << words("project new --help") << words("--name --task");
    QTest::addRow("project info") << words("project info -h") << words("info");
    QTest::addRow("evaluate") << words("evaluate --help") << words("--task --command --option --sandbox --keep --json");
    QTest::addRow("tasks") << words("tasks --help") << words("tasks");
    QTest::addRow("replay") << words("replay --help")
                            << words("--world --policy --workers --lambda --betas --rounds --json --trace --time-limit-ms "
                                     "--seed --threads --no-grid-plan --progress");
    QTest::addRow("replay --project") << words("replay --project p.dreamrsi --help") << words("--project --policy --name");
    QTest::addRow("synth") << words("synth --help")
                           << words("--out --worlds --seed --width --depth --fail-rate --regime --workers");
    QTest::addRow("plot") << words("plot --help")
                          << words("frontier anytime tree progress --project --world --versions --select --beta "
                                   "--width-mm --height-mm --dpi --data --out --label");
    QTest::addRow("bench tree") << words("bench tree --help") << words("--cells");
    QTest::addRow("bench sandbox") << words("bench sandbox --help") << words("--runs --workers --evaluations");
    QTest::addRow("bench store") << words("bench store --help") << words("--worlds --cells --project-cells --tree-cells");
    QTest::addRow("bench round") << words("bench round --help") << words("--branches --refinements --workers");
    QTest::addRow("bench replay") << words("bench replay --help") << words("--worlds");
    QTest::addRow("round") << words("round --help") << words("--project --task --agent --workers --rounds --accept-steering");
    QTest::addRow("dream") << words("dream --help") << words("--project --versions --agent");
    QTest::addRow("loop") << words("loop --help") << words("--project --task --iterations --versions --accept-steering --await-approval");
    QTest::addRow("approve") << words("approve --help") << words("--project --version --note --best --decline");
    QTest::addRow("steer") << words("steer --help") << words("--project --by --why close refine hint pause continue");
    QTest::addRow("agent try") << words("agent try --help") << words("--task --agent");
    QTest::addRow("status") << words("status --help") << words("--json live stalled interrupted finished kill");
    QTest::addRow("reevaluate") << words("reevaluate --help")
                                << words("--project --iteration --top --cell --repeats --json --backend lucky");
    QTest::addRow("dreamrsi") << words("--help") << words("validate export import ls project evaluate tasks replay "
                                                          "synth plot bench round dream loop approve agent steer "
                                                          "status reevaluate");
}

void TestCliCommands::help()
{
    QFETCH(QStringList, args);
    QFETCH(QStringList, names);
    const Run r = runText(args);
    QCOMPARE(r.exitCode, 0);
    // "usage: dreamrsi …", or Qt's "Usage: …/dreamrsi [options]" of the commands that print helpText().
    QVERIFY2(r.out.contains(QStringLiteral("sage: ")) && r.out.contains(QStringLiteral("dreamrsi")), qPrintable(r.out));
    for (const QString &name : std::as_const(names))
        QVERIFY2(r.out.contains(name), qPrintable(name + QStringLiteral(" missing from:\n") + r.out));
    // Nothing on stderr but what Qt may say about the environment (plot starts a QApplication).
    for (const QString &line : r.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        QVERIFY2(line.startsWith(QLatin1String("QStandardPaths:")), qPrintable(r.err));
}

void TestCliCommands::usageError_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("named"); // what the message must name
    // An option the command does not have.
    for (const char *command : {"validate", "export", "import", "ls", "evaluate", "tasks", "replay", "synth", "round",
                                "dream", "loop", "approve", "steer", "status", "reevaluate"}) {
        QTest::addRow("%s unknown option", command)
            << QStringList{QString::fromLatin1(command), QStringLiteral("--frobnicate")} << QStringLiteral("frobnicate");
    }
    QTest::addRow("project new unknown option") << words("project new p.dreamrsi --frobnicate") << QStringLiteral("--frobnicate");
    QTest::addRow("project info unknown option") << words("project info p.dreamrsi --frobnicate") << QStringLiteral("--frobnicate");
    QTest::addRow("replay --project unknown option") << words("replay --project p.dreamrsi --frobnicate")
                                                     << QStringLiteral("frobnicate");
    QTest::addRow("plot unknown option") << words("plot frontier --frobnicate") << QStringLiteral("--frobnicate");
    QTest::addRow("agent try unknown option") << words("agent try --frobnicate") << QStringLiteral("frobnicate");
    for (const char *bench : {"tree", "sandbox", "store", "round", "replay"}) {
        QTest::addRow("bench %s unknown option", bench)
            << QStringList{QStringLiteral("bench"), QString::fromLatin1(bench), QStringLiteral("--frobnicate")}
            << QStringLiteral("--frobnicate");
    }
    // A single-dash word is read as a long option, so it is named too.
    QTest::addRow("ls single-dash unknown") << words("ls p.dreamrsi -frobnicate") << QStringLiteral("-frobnicate");
    // Bad numbers and bad values.
    QTest::addRow("bench tree bad cells") << words("bench tree --cells x") << QStringLiteral("--cells");
    QTest::addRow("bench sandbox bad runs") << words("bench sandbox --runs 0") << QStringLiteral("--runs");
    QTest::addRow("bench store bad worlds") << words("bench store --worlds -3") << QStringLiteral("--worlds");
    QTest::addRow("bench round bad workers") << words("bench round --workers many") << QStringLiteral("--workers");
    QTest::addRow("bench replay bad worlds") << words("bench replay --worlds 0") << QStringLiteral("--worlds");
    QTest::addRow("replay bad lambda") << words("replay --lambda -1") << QStringLiteral("--lambda");
    QTest::addRow("replay bad seed") << words("replay --seed x") << QStringLiteral("--seed");
    QTest::addRow("synth bad worlds") << words("synth --out /tmp/x --worlds none --seed 1") << QStringLiteral("--worlds");
    QTest::addRow("plot bad beta") << words("plot anytime --world w.json --beta 2 --out f.svg") << QStringLiteral("--beta");
    QTest::addRow("plot bad dpi") << words("plot tree --world w.json --dpi x --out f.svg") << QStringLiteral("--dpi");
    QTest::addRow("plot label first") << words("plot progress --label x --project p --out f.svg") << QStringLiteral("--label");
    QTest::addRow("export bad iteration") << words("export p.dreamrsi --iteration x") << QStringLiteral("--iteration");
    QTest::addRow("evaluate bad sandbox") << words("evaluate --command true --sandbox box") << QStringLiteral("--sandbox");
    QTest::addRow("evaluate bad option") << words("evaluate --command true --option novalue") << QStringLiteral("--option");
    QTest::addRow("import bad origin") << words("import p.dreamrsi --policy p.js --origin alien") << QStringLiteral("--origin");
    // A value option given last, without its value.
    QTest::addRow("ls missing value") << words("ls p.dreamrsi --policy") << QStringLiteral("--policy");
    QTest::addRow("export missing value") << words("export in.json -o") << QStringLiteral("-o");
    QTest::addRow("import missing value") << words("import p.dreamrsi --policy") << QStringLiteral("--policy");
    QTest::addRow("replay missing value") << words("replay --world") << QStringLiteral("--world needs a file");
    QTest::addRow("synth missing value") << words("synth --out") << QStringLiteral("--out");
    QTest::addRow("plot missing value") << words("plot tree --out") << QStringLiteral("--out");
    QTest::addRow("plot missing data") << words("plot tree --data") << QStringLiteral("--data needs a file");
    QTest::addRow("bench tree missing value") << words("bench tree --cells") << QStringLiteral("--cells");
    QTest::addRow("evaluate missing value") << words("evaluate --command true --sandbox") << QStringLiteral("--sandbox");
    // Arguments where none belong, and subcommands that do not exist.
    QTest::addRow("tasks argument") << words("tasks extra") << QStringLiteral("extra");
    QTest::addRow("bench tree argument") << words("bench tree extra") << QStringLiteral("extra");
    QTest::addRow("ls extra argument") << words("ls p.dreamrsi results more") << QStringLiteral("more");
    QTest::addRow("ls unknown listing") << words("ls p.dreamrsi frobs") << QStringLiteral("frobs");
    QTest::addRow("project unknown subcommand") << words("project frob") << QStringLiteral("frob");
    QTest::addRow("plot unknown figure") << words("plot pie --out f.svg") << QStringLiteral("pie");
    QTest::addRow("import stray option") << words("import p.dreamrsi t.json --name n") << QStringLiteral("--name");
    // status: one project; reevaluate: --repeats, and either --top or --cell; steer kill: an attempt.
    QTest::addRow("status no project") << words("status") << QStringLiteral("the project is missing");
    QTest::addRow("status two projects") << words("status a.dreamrsi b.dreamrsi") << QStringLiteral("one project, not 2");
    QTest::addRow("reevaluate no repeats") << words("reevaluate --project p.dreamrsi --top 2")
                                           << QStringLiteral("--repeats is required");
    QTest::addRow("reevaluate bad repeats") << words("reevaluate --project p.dreamrsi --top 2 --repeats 0")
                                            << QStringLiteral("--repeats must be an integer");
    QTest::addRow("reevaluate top and cell") << words("reevaluate --project p.dreamrsi --top 2 --cell b0a0 --repeats 3")
                                             << QStringLiteral("either --top K or --cell ID");
    QTest::addRow("reevaluate neither") << words("reevaluate --project p.dreamrsi --repeats 3")
                                        << QStringLiteral("either --top K or --cell ID");
    QTest::addRow("steer kill no attempt") << words("steer --project p.dreamrsi kill")
                                           << QStringLiteral("kill takes one attempt's id");
}

void TestCliCommands::usageError()
{
    QFETCH(QStringList, args);
    QFETCH(QString, named);
    const Run r = runText(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(named), qPrintable(r.err));
    QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
}

void TestCliCommands::readerKeepsOrder()
{
    // plot pairs each --label with the --project before it, and replay keeps
    // its worlds in the order given: inOrder() gives the options as typed.
    const QList<QCommandLineOption> options{CommandLine::value("project"), CommandLine::value("label"),
                                            CommandLine::value("o,out"), CommandLine::flag("json")};
    QCommandLineParser parser;
    CommandLine::Problem problem;
    const QStringList args{QStringLiteral("--project"), QStringLiteral("a"), QStringLiteral("--json"),
                           QStringLiteral("-project"),  QStringLiteral("b"), QStringLiteral("--label"),
                           QStringLiteral("B"),         QStringLiteral("-o"), QStringLiteral("f.svg"),
                           QStringLiteral("--project=c"), QStringLiteral("x.json")};
    QCOMPARE(CommandLine::parse(parser, options, args, &problem), CommandLine::Outcome::Run);
    const QList<CommandLine::Given> given = CommandLine::inOrder(parser, options);
    QStringList seen;
    for (const CommandLine::Given &g : given)
        seen.append(g.name + QLatin1Char('=') + g.value);
    QCOMPARE(seen, (QStringList{QStringLiteral("project=a"), QStringLiteral("json="), QStringLiteral("project=b"),
                                QStringLiteral("label=B"), QStringLiteral("o=f.svg"), QStringLiteral("project=c")}));
    QCOMPARE(given.at(4).typed, QStringLiteral("o"));
    QCOMPARE(parser.positionalArguments(), QStringList{QStringLiteral("x.json")});
}

void TestCliCommands::readerProblems()
{
    const QList<QCommandLineOption> options{CommandLine::value("world", "FILE"), CommandLine::flag("json")};
    {
        QCommandLineParser parser;
        CommandLine::Problem problem;
        QCOMPARE(CommandLine::parse(parser, options, {QStringLiteral("--json"), QStringLiteral("-x")}, &problem),
                 CommandLine::Outcome::Error);
        QCOMPARE(problem.kind, CommandLine::Problem::Kind::UnknownOption);
        QCOMPARE(problem.argument, QStringLiteral("-x"));
    }
    {
        QCommandLineParser parser;
        CommandLine::Problem problem;
        QCOMPARE(CommandLine::parse(parser, options, {QStringLiteral("--json"), QStringLiteral("--world")}, &problem),
                 CommandLine::Outcome::Error);
        QCOMPARE(problem.kind, CommandLine::Problem::Kind::MissingValue);
        QCOMPARE(problem.argument, QStringLiteral("--world"));
    }
    {
        QCommandLineParser parser;
        CommandLine::Problem problem;
        QCOMPARE(CommandLine::parse(parser, options, {QStringLiteral("--json=yes")}, &problem), CommandLine::Outcome::Error);
        QCOMPARE(problem.kind, CommandLine::Problem::Kind::Other);
        QCOMPARE(problem.argument, QStringLiteral("--json=yes"));
    }
    {
        // Help wins over anything else wrong.
        QCommandLineParser parser;
        CommandLine::Problem problem;
        QCOMPARE(CommandLine::parse(parser, options, {QStringLiteral("--nope"), QStringLiteral("-h")}, &problem),
                 CommandLine::Outcome::Help);
    }
    {
        // A value that starts with a dash is still the value.
        QCommandLineParser parser;
        CommandLine::Problem problem;
        QCOMPARE(CommandLine::parse(parser, options, {QStringLiteral("--world"), QStringLiteral("--json")}, &problem),
                 CommandLine::Outcome::Run);
        QCOMPARE(parser.value(QStringLiteral("world")), QStringLiteral("--json"));
        QVERIFY(!parser.isSet(QStringLiteral("json")));
    }
}

QTEST_GUILESS_MAIN(TestCliCommands)
#include "tst_cli_commands.moc"
