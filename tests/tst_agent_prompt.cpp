// The exploration prompt (docs/online.md#prompts), the answer parser and the price
// table: long histories keep their newest attempts in full and say what was
// summarised; the bundled template can be overridden; the program is the
// last fenced block; usd = tokens × price.
#include "agent/answerparser.h"
#include "agent/explorationprompt.h"
#include "agent/pricetable.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace dreamrsi;

namespace {

AttemptRecord record(int i, std::optional<double> score, const QString &failClass = {})
{
    AttemptRecord r;
    r.iteration = 1 + i / 50;
    r.branch = i % 5;
    r.attempt = i / 5;
    r.cellId = QStringLiteral("b%1a%2").arg(r.branch).arg(r.attempt);
    r.score = score;
    r.failClass = failClass;
    if (!score)
        r.error = QStringLiteral("Traceback: error number %1").arg(i);
    r.proposal = QStringLiteral("Idea number %1: first line\n\n").arg(i) + QString(1500, u'x')
                 + QStringLiteral("\nEND-OF-PROPOSAL-%1").arg(i);
    return r;
}

AttemptContext contextWith(int attempts)
{
    AttemptContext c;
    c.task = QStringLiteral("c3_autocorrelation");
    c.taskStatement = QStringLiteral("Minimise the autocorrelation constant (TASK-MARKER).");
    c.programFileName = QStringLiteral("main.py");
    c.cellId = QStringLiteral("b0a9");
    c.attempt = 9;
    c.parentProgram = QStringLiteral("print('PARENT-PROGRAM')\n");
    c.parentProposal = QStringLiteral("PARENT-PROPOSAL");
    c.parentScore = 0.5;
    c.directionHint = QStringLiteral("direction:step-heights");
    for (int i = 0; i < attempts; ++i)
        c.history.append(i % 4 == 3 ? record(i, std::nullopt, QStringLiteral("timeout")) : record(i, 0.1 * i));
    return c;
}

} // namespace

class TestAgentPrompt : public QObject
{
    Q_OBJECT
private slots:
    void bundledTemplate()
    {
        const QString text = ExplorationPrompt::bundledTemplate();
        QVERIFY(text.contains(QStringLiteral("{{history}}")));
        QVERIFY(text.contains(QStringLiteral("{{output_instructions}}")));
        QVERIFY(text.contains(QStringLiteral("<!-- user -->")));
        const Result<ExplorationPrompt> prompt = ExplorationPrompt::load(AgentConfig{});
        QVERIFY2(prompt.ok(), qPrintable(prompt.error));
        QCOMPARE(prompt.value->source(), QStringLiteral("bundled"));
    }

    void shortHistoryIsShownInFull()
    {
        const ExplorationPrompt prompt(ExplorationPrompt::bundledTemplate());
        const AttemptContext context = contextWith(6);
        ExplorationPrompt::History history;
        const ChatRequest request = prompt.build(context, ExplorationPrompt::Mode::Chat, 200000, &history);
        QCOMPARE(history.full, 6);
        QCOMPARE(history.summarised, 0);
        QCOMPARE(history.counted, 0);
        QVERIFY(!request.system.isEmpty());
        QVERIFY(request.system.contains(QStringLiteral("step-heights")));       // the branch's direction
        QVERIFY(!request.system.contains(QStringLiteral("step-heights\" (")));  // no description given
        AttemptContext described = context;
        described.directionDetail = QStringLiteral("search over single step heights");
        QVERIFY2(prompt.build(described, ExplorationPrompt::Mode::Chat, 200000)
                     .system.contains(QStringLiteral("\"step-heights\" (search over single step heights)")),
                 qPrintable(prompt.build(described, ExplorationPrompt::Mode::Chat, 200000).system));
        QVERIFY(request.system.contains(QStringLiteral("last fenced code block")));
        QVERIFY(request.user.contains(QStringLiteral("TASK-MARKER")));
        QVERIFY(request.user.contains(QStringLiteral("PARENT-PROGRAM")));
        QVERIFY(request.user.contains(QStringLiteral("PARENT-PROPOSAL")));
        QVERIFY(request.user.contains(QStringLiteral("all shown in full")));
        for (int i = 0; i < 6; ++i)
            QVERIFY(request.user.contains(QStringLiteral("END-OF-PROPOSAL-%1").arg(i)));
        QVERIFY(request.user.contains(QStringLiteral("failed (timeout)")));
        QVERIFY(request.user.contains(QStringLiteral("Traceback: error number 3")));
        QVERIFY(request.user.contains(QStringLiteral("Best measured score so far: 0.5")));
        QVERIFY(!request.user.contains(QStringLiteral("{{")));
        QVERIFY(!request.system.contains(QStringLiteral("{{")));
    }

    void longHistoryKeepsTheNewestInFull()
    {
        const ExplorationPrompt prompt(ExplorationPrompt::bundledTemplate());
        const AttemptContext context = contextWith(200);
        const int budget = 40000;
        ExplorationPrompt::History history;
        const ChatRequest request = prompt.build(context, ExplorationPrompt::Mode::Chat, budget, &history);
        const QString text = ExplorationPrompt::joined(request);
        QVERIFY2(text.size() <= budget + 2000, qPrintable(QString::number(text.size())));
        QVERIFY(history.full >= 1);
        QVERIFY(history.summarised > 0);
        QCOMPARE(history.full + history.summarised + history.counted, 200);
        // The newest attempts are there in full, in order …
        for (int i = 200 - history.full; i < 200; ++i)
            QVERIFY2(text.contains(QStringLiteral("END-OF-PROPOSAL-%1").arg(i)), qPrintable(QString::number(i)));
        // … the one before them only as a line with its first line …
        const int lastSummarised = 199 - history.full;
        QVERIFY(!text.contains(QStringLiteral("END-OF-PROPOSAL-%1\n").arg(lastSummarised)));
        QVERIFY(text.contains(QStringLiteral("Idea number %1: first line").arg(lastSummarised)));
        // … and the prompt says what was summarised.
        QVERIFY(text.contains(QStringLiteral("There are 200 earlier attempts")));
        QVERIFY(text.contains(QStringLiteral("only the newest %1 are shown in full").arg(history.full)));
        QVERIFY(text.contains(QStringLiteral("summarised in one line each")));
        if (history.counted > 0) {
            QVERIFY(text.contains(QStringLiteral("oldest attempts are only counted")));
            QVERIFY(text.contains(QStringLiteral("the %1 oldest").arg(history.counted)));
        }
        // The best score is named even when it was summarised away.
        QVERIFY(text.contains(QStringLiteral("Best measured score so far: 19.8")));
    }

    void tinyBudgetCountsTheOldest()
    {
        const AttemptContext context = contextWith(300);
        const ExplorationPrompt::History history = ExplorationPrompt::renderHistory(context.history, 6000);
        QVERIFY(history.counted > 0);
        QVERIFY(history.full >= 1);
        QCOMPARE(history.full + history.summarised + history.counted, 300);
        QVERIFY(history.text.contains(QStringLiteral("oldest attempts are only counted")));
        QVERIFY(history.text.contains(QStringLiteral("timeout × ")));
        QVERIFY(history.note.contains(QStringLiteral("only counted")));
        QVERIFY(history.text.size() <= 6000 + 600);
    }

    void emptyHistory()
    {
        const ExplorationPrompt::History history = ExplorationPrompt::renderHistory({}, 10000);
        QVERIFY(history.note.contains(QStringLiteral("no earlier attempts")));
        QVERIFY(history.text.isEmpty());
    }

    void historyTextIsNotATemplate()
    {
        ExplorationPrompt prompt(QStringLiteral("Task {{task}}\n{{history}}\n{{unknown_name}}"));
        AttemptContext context = contextWith(1);
        context.history[0].proposal = QStringLiteral("I mention {{task}} literally");
        const ChatRequest request = prompt.build(context, ExplorationPrompt::Mode::Chat, 100000);
        QVERIFY(request.system.isEmpty()); // no user marker: all of it is the user text
        QVERIFY(request.user.startsWith(QStringLiteral("Task c3_autocorrelation")));
        QVERIFY(request.user.contains(QStringLiteral("I mention {{task}} literally")));
        QVERIFY(request.user.contains(QStringLiteral("{{unknown_name}}")));
    }

    void filesModeNamesTheFiles()
    {
        const ExplorationPrompt prompt(ExplorationPrompt::bundledTemplate());
        AttemptContext context = contextWith(2);
        context.workspaceDir = QStringLiteral("/tmp/project/attempts/1/b0a9");
        context.baselineDir = QStringLiteral("/tmp/project/baseline");
        const ChatRequest request = prompt.build(context, ExplorationPrompt::Mode::Files, 100000);
        QVERIFY(request.system.contains(QStringLiteral("`proposal.md`")));
        QVERIFY(request.user.contains(QStringLiteral("/tmp/project/attempts/1/b0a9")));
        QVERIFY(request.user.contains(QStringLiteral("/tmp/project/baseline")));
    }

    void override()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("mine.md"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("MY OWN PROMPT for {{task}}");
        file.close();
        AgentConfig config;
        config.promptFile = path;
        Result<ExplorationPrompt> read = ExplorationPrompt::load(config);
        QVERIFY2(read.ok(), qPrintable(read.error));
        std::optional<ExplorationPrompt> prompt = read.value;
        QCOMPARE(prompt->build(contextWith(0), ExplorationPrompt::Mode::Chat, 1000).user,
                 QStringLiteral("MY OWN PROMPT for c3_autocorrelation\n"));

        qputenv("DREAMRSI_EXPLORATION_PROMPT", path.toUtf8());
        prompt = ExplorationPrompt::load(AgentConfig{}).value;
        QVERIFY(prompt);
        QVERIFY(prompt->templateText().startsWith(QStringLiteral("MY OWN PROMPT")));
        qputenv("DREAMRSI_EXPLORATION_PROMPT", "/nonexistent/prompt.md");
        const QString error = ExplorationPrompt::load(AgentConfig{}).error;
        QVERIFY(!error.isEmpty());
        QVERIFY(error.contains(QStringLiteral("/nonexistent/prompt.md")));
        QVERIFY(error.contains(QStringLiteral("DREAMRSI_EXPLORATION_PROMPT")));
        qunsetenv("DREAMRSI_EXPLORATION_PROMPT");
    }

    void parser_data()
    {
        QTest::addColumn<QString>("answer");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("errorPart");
        QTest::newRow("last of two") << QStringLiteral("a\n```py\nfirst\n```\nb\n```python\nsecond\n```\n") << true
                                     << QStringLiteral("second\n") << QString();
        QTest::newRow("no tag, tilde") << QStringLiteral("text\n~~~\nx = 1\ny = 2\n~~~") << true
                                       << QStringLiteral("x = 1\ny = 2\n") << QString();
        QTest::newRow("inner shorter fence") << QStringLiteral("````md\n```\ninner\n```\n````\n") << true
                                             << QStringLiteral("```\ninner\n```\n") << QString();
        QTest::newRow("crlf") << QStringLiteral("p\r\n```c\r\nint x;\r\n```\r\n") << true << QStringLiteral("int x;\n")
                              << QString();
        QTest::newRow("no block") << QStringLiteral("just words") << false << QString()
                                  << QStringLiteral("no fenced code block");
        QTest::newRow("cut off") << QStringLiteral("words\n```python\nprint(1)\n") << false << QString()
                                 << QStringLiteral("never closed");
        QTest::newRow("empty block") << QStringLiteral("x\n```\n```\n") << false << QString() << QStringLiteral("empty");
    }
    void parser()
    {
        QFETCH(QString, answer);
        QFETCH(bool, ok);
        QFETCH(QString, program);
        QFETCH(QString, errorPart);
        const ParsedAnswer parsed = parseAnswer(answer);
        QCOMPARE(parsed.ok, ok);
        if (ok) {
            QCOMPARE(parsed.program, program);
            QVERIFY(!parsed.proposal.contains(program.trimmed()) || program.contains(QStringLiteral("inner")));
        } else {
            QVERIFY2(parsed.error.contains(errorPart), qPrintable(parsed.error));
        }
    }

    void priceTable()
    {
        PriceTable table = PriceTable::defaults();
        QVERIFY(table.priceFor(QStringLiteral("gpt-4o")));
        // A dated model takes the price of its family; a longer listed name wins.
        QCOMPARE(table.priceFor(QStringLiteral("claude-sonnet-4-5-20250929"))->model, QStringLiteral("claude-sonnet-4-5"));
        QCOMPARE(table.priceFor(QStringLiteral("gpt-4o-mini-2024-07-18"))->model, QStringLiteral("gpt-4o-mini"));
        QVERIFY(!table.priceFor(QStringLiteral("gpt-4")));
        table.setPrice({QStringLiteral("my-model"), 3.0, 15.0});
        QCOMPARE(table.usd(QStringLiteral("my-model"), 1'000'000, 2'000'000), 33.0);
        QCOMPARE(table.usd(QStringLiteral("unpriced"), 1000, 1000), 0.0);
        // JSON round trip through a file.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("prices.json"));
        const Result<Done> saved = table.save(path);
        QVERIFY2(saved.ok(), qPrintable(saved.error));
        const Result<PriceTable> read = PriceTable::load(path);
        QVERIFY2(read.ok(), qPrintable(read.error));
        const std::optional<PriceTable> &loaded = read.value;
        QVERIFY(*loaded == table);
        QVERIFY(table.remove(QStringLiteral("my-model")));
        QVERIFY(!table.priceFor(QStringLiteral("my-model")));
        // Bad input names what is wrong.
        const QJsonObject bad = QJsonDocument::fromJson(
            R"({"format":"dreamrsi-prices/1","models":{"m1":{"input":-1,"output":2}}})").object();
        QVERIFY(PriceTable::fromJson(bad).error.contains(QStringLiteral("m1")));
        QFile junk(dir.filePath(QStringLiteral("junk.json")));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("{not json");
        junk.close();
        QVERIFY(PriceTable::load(junk.fileName()).error.contains(QStringLiteral("junk.json")));
        // The process-wide table.
        PriceTable::setCurrent(*loaded);
        QCOMPARE(PriceTable::current().usd(QStringLiteral("my-model"), 1'000'000, 0), 3.0);
    }
};

QTEST_GUILESS_MAIN(TestAgentPrompt)
#include "tst_agent_prompt.moc"
