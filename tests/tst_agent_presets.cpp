// The command-agent presets with the real coding-agent CLIs: the versions
// each preset names are installed from npm into a cache folder
// (tests/install-agent-tools.sh), and each preset runs one attempt of a
// `dreamrsi round --agent command --command preset:NAME` against a provider
// stand-in on 127.0.0.1 that answers in the API that tool speaks (Claude
// Code: the streamed Messages API, with tool calls that read and write the
// program; Codex: the streamed Responses API; Gemini CLI: generateContent
// and streamGenerateContent). The program the stand-in wrote must be the
// one evaluated and stored; the planted key must reach the stand-in (so the
// preset let the key and the base-URL variable through) and appear in no
// file of the project. Skips only when npm is missing.
#include "agentstandin.h"
#include "roundtestsupport.h"
#include "storetestsupport.h"

#include "agent/commandagentpresets.h"
#include "store/projectstore.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi;
using dreamrsi::test::ProviderStandIn;
using dreamrsi::test::StandInReply;
using dreamrsi::test::StandInRequest;
using dreamrsi::test::take;

namespace {

const QString installScript = QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/install-agent-tools.sh");
/// What every stand-in hands back: the toy task scores it 42.
const QString program = QStringLiteral("VALUE = 42\nprint(VALUE)\n");

QString toolsDir()
{
    const QByteArray set = qgetenv("DREAMRSI_AGENT_TOOLS");
    return set.isEmpty() ? QDir::homePath() + QStringLiteral("/.cache/dreamrsi/agent-tools") : QString::fromLocal8Bit(set);
}

/// Claude Code: read the program, write the new one with its Write tool,
/// then say so (three turns of the streamed Messages API).
StandInReply claudeReply(const StandInRequest &request)
{
    const QString body = QString::fromUtf8(request.body);
    static const QRegularExpression cwd(QStringLiteral("Primary working directory: ([^\\\\\"]+)"));
    const QRegularExpressionMatch where = cwd.match(body);
    const QString file = (where.hasMatch() ? where.captured(1).trimmed() : QDir::currentPath()) + QStringLiteral("/main.py");
    qsizetype results = 0; // tool results sent back so far
    const QJsonArray messages = request.json.value(QStringLiteral("messages")).toArray();
    for (const QJsonValue &message : messages) {
        const QJsonArray content = message.toObject().value(QStringLiteral("content")).toArray();
        for (const QJsonValue &part : content)
            results += part.toObject().value(QStringLiteral("type")).toString() == QLatin1String("tool_result") ? 1 : 0;
    }
    const QString model = request.json.value(QStringLiteral("model")).toString();
    auto start = QJsonObject{{QStringLiteral("type"), QStringLiteral("message_start")},
                             {QStringLiteral("message"),
                              QJsonObject{{QStringLiteral("id"), QStringLiteral("msg_%1").arg(results)},
                                          {QStringLiteral("type"), QStringLiteral("message")},
                                          {QStringLiteral("role"), QStringLiteral("assistant")},
                                          {QStringLiteral("model"), model},
                                          {QStringLiteral("content"), QJsonArray()},
                                          {QStringLiteral("stop_reason"), QJsonValue::Null},
                                          {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), 120},
                                                                                {QStringLiteral("output_tokens"), 1}}}}}};
    QJsonObject block;
    QJsonObject delta;
    QString stop = QStringLiteral("tool_use");
    if (!where.hasMatch() || results >= 2) {
        block = {{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), QString()}};
        delta = {{QStringLiteral("type"), QStringLiteral("text_delta")},
                 {QStringLiteral("text"), QStringLiteral("Set VALUE to 42 in main.py: a larger constant scores higher.")}};
        stop = QStringLiteral("end_turn");
    } else {
        const bool read = results == 0;
        const QJsonObject input = read ? QJsonObject{{QStringLiteral("file_path"), file}}
                                       : QJsonObject{{QStringLiteral("file_path"), file}, {QStringLiteral("content"), program}};
        block = {{QStringLiteral("type"), QStringLiteral("tool_use")},
                 {QStringLiteral("id"), QStringLiteral("toolu_%1").arg(results)},
                 {QStringLiteral("name"), read ? QStringLiteral("Read") : QStringLiteral("Write")},
                 {QStringLiteral("input"), QJsonObject()}};
        delta = {{QStringLiteral("type"), QStringLiteral("input_json_delta")},
                 {QStringLiteral("partial_json"), QString::fromUtf8(QJsonDocument(input).toJson(QJsonDocument::Compact))}};
    }
    return StandInReply::events({
        {"message_start", start},
        {"content_block_start", QJsonObject{{QStringLiteral("type"), QStringLiteral("content_block_start")},
                                            {QStringLiteral("index"), 0},
                                            {QStringLiteral("content_block"), block}}},
        {"content_block_delta", QJsonObject{{QStringLiteral("type"), QStringLiteral("content_block_delta")},
                                            {QStringLiteral("index"), 0},
                                            {QStringLiteral("delta"), delta}}},
        {"content_block_stop", QJsonObject{{QStringLiteral("type"), QStringLiteral("content_block_stop")}, {QStringLiteral("index"), 0}}},
        {"message_delta", QJsonObject{{QStringLiteral("type"), QStringLiteral("message_delta")},
                                      {QStringLiteral("delta"), QJsonObject{{QStringLiteral("stop_reason"), stop}}},
                                      {QStringLiteral("usage"), QJsonObject{{QStringLiteral("output_tokens"), 40}}}}},
        {"message_stop", QJsonObject{{QStringLiteral("type"), QStringLiteral("message_stop")}}},
    });
}

QString answerText()
{
    return QStringLiteral("Set VALUE to 42: a larger constant scores higher.\n\n```python\n") + program + QStringLiteral("```\n");
}

/// Codex: one streamed Responses API turn whose final message holds the program.
StandInReply codexReply(const StandInRequest &request)
{
    if (request.method != "POST" || !request.path.startsWith("/v1/responses"))
        return StandInReply::json(404, {});
    const QJsonObject item{{QStringLiteral("type"), QStringLiteral("message")},
                           {QStringLiteral("id"), QStringLiteral("msg_1")},
                           {QStringLiteral("role"), QStringLiteral("assistant")},
                           {QStringLiteral("status"), QStringLiteral("completed")},
                           {QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("output_text")},
                                                                              {QStringLiteral("text"), answerText()},
                                                                              {QStringLiteral("annotations"), QJsonArray()}}}}};
    return StandInReply::events({
        {"response.created", QJsonObject{{QStringLiteral("type"), QStringLiteral("response.created")},
                                         {QStringLiteral("response"), QJsonObject{{QStringLiteral("id"), QStringLiteral("resp_1")}}}}},
        {"response.output_item.done", QJsonObject{{QStringLiteral("type"), QStringLiteral("response.output_item.done")},
                                                  {QStringLiteral("output_index"), 0},
                                                  {QStringLiteral("item"), item}}},
        {"response.completed",
         QJsonObject{{QStringLiteral("type"), QStringLiteral("response.completed")},
                     {QStringLiteral("response"),
                      QJsonObject{{QStringLiteral("id"), QStringLiteral("resp_1")},
                                  {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), 120},
                                                                        {QStringLiteral("output_tokens"), 40},
                                                                        {QStringLiteral("total_tokens"), 160}}}}}}},
    });
}

/// A value of the JSON schema Gemini CLI asks its router model to fill.
QJsonValue fillSchema(const QJsonObject &schema)
{
    const QString type = schema.value(QStringLiteral("type")).toString().toUpper();
    if (schema.contains(QStringLiteral("enum")))
        return schema.value(QStringLiteral("enum")).toArray().first();
    if (type == QLatin1String("OBJECT")) {
        QJsonObject o;
        const QJsonObject properties = schema.value(QStringLiteral("properties")).toObject();
        for (auto it = properties.begin(); it != properties.end(); ++it)
            o.insert(it.key(), fillSchema(it.value().toObject()));
        return o;
    }
    if (type == QLatin1String("INTEGER") || type == QLatin1String("NUMBER"))
        return 10;
    if (type == QLatin1String("BOOLEAN"))
        return false;
    if (type == QLatin1String("ARRAY"))
        return QJsonArray();
    return QStringLiteral("a simple request");
}

/// Gemini CLI: its router's structured question (generateContent), then the
/// streamed answer (streamGenerateContent?alt=sse).
StandInReply geminiReply(const StandInRequest &request)
{
    const QJsonObject schema =
        request.json.value(QStringLiteral("generationConfig")).toObject().value(QStringLiteral("responseJsonSchema")).toObject();
    const QString text = schema.isEmpty() ? answerText()
                                          : QString::fromUtf8(QJsonDocument(fillSchema(schema).toObject()).toJson(QJsonDocument::Compact));
    const QJsonObject answer = test::providerAnswer(QStringLiteral("gemini"), QStringLiteral("stand-in"), text, 120, 40);
    if (request.path.contains(":streamGenerateContent"))
        return StandInReply::events({{QByteArray(), answer}});
    if (request.path.contains(":generateContent"))
        return StandInReply::json(200, answer);
    if (request.path.contains(":countTokens"))
        return StandInReply::json(200, QJsonObject{{QStringLiteral("totalTokens"), 120}});
    return StandInReply::json(404, {});
}

/// The files under `dir` (recursively) whose bytes contain `needle`.
QStringList filesContaining(const QString &dir, const QByteArray &needle)
{
    QStringList hits;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (file.open(QIODevice::ReadOnly) && file.readAll().contains(needle))
            hits << file.fileName();
    }
    return hits;
}

} // namespace

class TestAgentPresets : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void presetsNameTheInstalledVersions();
    void presetOnTheCommandLine_data();
    void presetOnTheCommandLine();

private:
    QString m_bin; ///< node_modules/.bin of the installed tools
};

void TestAgentPresets::initTestCase()
{
    if (QStandardPaths::findExecutable(QStringLiteral("npm")).isEmpty())
        QSKIP("npm is not installed: the coding-agent CLIs (claude-code, codex, gemini-cli) cannot be installed to run "
              "their presets; install Node.js and npm to run this suite");
    QProcess install;
    install.setProcessChannelMode(QProcess::MergedChannels);
    install.start(QStringLiteral("bash"), {installScript, toolsDir()});
    QVERIFY2(install.waitForStarted(10'000), qPrintable(install.errorString()));
    const bool ended = install.waitForFinished(600'000);
    if (!ended)
        install.kill();
    const QString output = QString::fromLocal8Bit(install.readAll());
    QVERIFY2(ended && install.exitStatus() == QProcess::NormalExit && install.exitCode() == 0,
             qPrintable(QStringLiteral("installing the agent CLIs into %1 failed:\n%2").arg(toolsDir(), output)));
    m_bin = toolsDir() + QStringLiteral("/node_modules/.bin");
}

void TestAgentPresets::presetsNameTheInstalledVersions()
{
    // The install script pins exactly the releases the presets were tried with.
    QFile script(installScript);
    QVERIFY(script.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(script.readAll());
    int npmTools = 0;
    for (const CommandAgentPreset &preset : commandAgentPresets()) {
        if (preset.checkedWith.isEmpty())
            continue;
        ++npmTools;
        QVERIFY2(text.contains(u'"' + preset.checkedWith + u'"'), qPrintable(preset.name + QStringLiteral(": ") + preset.checkedWith));
        // The installed tool says it is that release.
        const QString tool = preset.command.section(u' ', 0, 0);
        QProcess version;
        version.setProcessChannelMode(QProcess::MergedChannels);
        version.start(m_bin + u'/' + tool, {QStringLiteral("--version")});
        QVERIFY2(version.waitForStarted(10'000), qPrintable(tool + QStringLiteral(": ") + version.errorString()));
        QVERIFY(version.waitForFinished(60'000));
        const QString said = QString::fromLocal8Bit(version.readAll());
        QVERIFY2(said.contains(preset.checkedWith.section(u'@', -1)), qPrintable(tool + QStringLiteral(" --version: ") + said));
    }
    QCOMPARE(npmTools, 3);
}

void TestAgentPresets::presetOnTheCommandLine_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("keyVariable");
    QTest::addColumn<QString>("baseUrlVariable");
    QTest::addColumn<QString>("baseUrlSuffix");
    QTest::addColumn<QByteArray>("keyHeader");
    QTest::newRow("claude-code") << QStringLiteral("claude-code") << QStringLiteral("ANTHROPIC_API_KEY")
                                 << QStringLiteral("ANTHROPIC_BASE_URL") << QString() << QByteArray("x-api-key");
    QTest::newRow("codex") << QStringLiteral("codex") << QStringLiteral("OPENAI_API_KEY") << QStringLiteral("OPENAI_BASE_URL")
                           << QStringLiteral("/v1") << QByteArray("authorization");
    QTest::newRow("gemini-cli") << QStringLiteral("gemini-cli") << QStringLiteral("GEMINI_API_KEY")
                                << QStringLiteral("GOOGLE_GEMINI_BASE_URL") << QString() << QByteArray("x-goog-api-key");
}

void TestAgentPresets::presetOnTheCommandLine()
{
    QFETCH(QString, preset);
    QFETCH(QString, keyVariable);
    QFETCH(QString, baseUrlVariable);
    QFETCH(QString, baseUrlSuffix);
    QFETCH(QByteArray, keyHeader);

    ProviderStandIn standIn;
    QVERIFY(standIn.listen());
    standIn.setResponder(preset == QLatin1String("claude-code") ? claudeReply
                         : preset == QLatin1String("codex")     ? codexReply
                                                                : geminiReply);
    QTemporaryDir projectDir;
    QTemporaryDir home; // the tools' own settings and sessions go here, not to the user's home
    QVERIFY(projectDir.isValid() && home.isValid());
    if (preset == QLatin1String("gemini-cli")) {
        // Gemini CLI takes GOOGLE_GEMINI_BASE_URL for a gateway login that
        // its headless mode refuses; the key login still honours it.
        QVERIFY(QDir().mkpath(home.filePath(QStringLiteral(".gemini"))));
        QFile settings(home.filePath(QStringLiteral(".gemini/settings.json")));
        QVERIFY(settings.open(QIODevice::WriteOnly));
        settings.write(R"({"security": {"auth": {"selectedType": "gemini-api-key"}},
                           "privacy": {"usageStatisticsEnabled": false},
                           "general": {"disableAutoUpdate": true, "disableUpdateNag": true}})");
    }
    const QByteArray key = "sk-PLANTED-" + preset.toLatin1() + "-5d1c0e";
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PATH"), m_bin + u':' + env.value(QStringLiteral("PATH")));
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(keyVariable, QString::fromLatin1(key));
    env.insert(baseUrlVariable, standIn.baseUrl() + baseUrlSuffix);

    const QString project = projectDir.filePath(QStringLiteral("p.dreamrsi"));
    QProcess round;
    round.setProcessEnvironment(env);
    round.setWorkingDirectory(projectDir.path());
    round.start(QStringLiteral(DREAMRSI_BIN_DIR "/dreamrsi"),
                {QStringLiteral("round"), QStringLiteral("--project"), project, QStringLiteral("--task"), test::toyTaskDir(),
                 QStringLiteral("--agent"), QStringLiteral("command"), QStringLiteral("--command"),
                 QStringLiteral("preset:") + preset, QStringLiteral("--rounds"), QStringLiteral("1"), QStringLiteral("--workers"),
                 QStringLiteral("1"), QStringLiteral("--json")});
    QVERIFY2(round.waitForStarted(10'000), qPrintable(round.errorString()));
    // The stand-in answers on this thread: keep its event loop turning.
    QTRY_VERIFY_WITH_TIMEOUT(round.state() == QProcess::NotRunning, 300'000);
    const QString out = QString::fromUtf8(round.readAllStandardOutput());
    const QString err = QString::fromUtf8(round.readAllStandardError());
    QVERIFY2(round.exitStatus() == QProcess::NormalExit && round.exitCode() == 0, qPrintable(err + out));

    // The tool reached the stand-in, with the key the preset let through.
    QVERIFY2(!standIn.requests().isEmpty(), qPrintable(err));
    bool keyed = false;
    for (const StandInRequest &r : standIn.requests())
        keyed = keyed || r.headers.value(keyHeader).contains(key);
    QVERIFY2(keyed, qPrintable(QStringLiteral("no request carried the key in %1").arg(QString::fromLatin1(keyHeader))));

    // The stand-in's program is the one stored and evaluated.
    ProjectStore store;
    take(store.open(project));
    const QList<IterationInfo> iterations = take(store.iterations());
    QCOMPARE(iterations.size(), 1);
    const IterationData data = take(store.iterationData(iterations.first().id));
    take(store.close());
    QCOMPARE(data.cells.size(), 1);
    const Cell &cell = data.cells.first();
    QVERIFY2(cell.failClass == QLatin1String("ok"), qPrintable(cell.failClass + QStringLiteral(": ") + cell.error.value_or(QString()) + err));
    QCOMPARE(cell.score.value_or(-1), 42.0);
    QCOMPARE(cell.payload.value(QStringLiteral("program")).toString(), program);
    QCOMPARE(cell.payload.value(QStringLiteral("agent")).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("command"));

    // No file of the project (database, artifacts, workspaces, logs) holds the key.
    const QStringList leaks = filesContaining(projectDir.path(), key);
    QVERIFY2(leaks.isEmpty(), qPrintable(leaks.join(u'\n')));
    QVERIFY(!out.contains(QString::fromLatin1(key)));
    QVERIFY(!err.contains(QString::fromLatin1(key)));
}

QTEST_GUILESS_MAIN(TestAgentPresets)
#include "tst_agent_presets.moc"
