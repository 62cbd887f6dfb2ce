// Command-line agents (docs/online.md#command-line-agents): a small fake agent written in sh
// reads the prompt on stdin and leaves files in its workspace; the time
// limit kills its whole process group, children included; its environment
// carries only what was allowed; files outside the workspace are ignored.
#include "agent/agentfactory.h"
#include "agent/chatdiscoveryagent.h"
#include "agent/commandagent.h"
#include "agent/commandagentpresets.h"

#include <QDir>
#include <QFile>
#include <QFuture>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>

#include <unistd.h>

using namespace dreamrsi;

namespace {

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

void writeText(const QString &path, const QString &text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text.toUtf8());
}

AttemptContext contextIn(const QString &workspace)
{
    AttemptContext c;
    c.task = QStringLiteral("sums_differences");
    c.taskStatement = QStringLiteral("Find a set with many more differences than sums (STATEMENT-MARKER).");
    c.programFileName = QStringLiteral("main.py");
    c.cellId = QStringLiteral("b1a2");
    c.branch = 1;
    c.attempt = 2;
    c.iteration = 3;
    c.workspaceDir = workspace;
    c.parentProgram = QStringLiteral("print('parent')\n");
    c.parentProposal = QStringLiteral("the parent's idea");
    c.parentScore = 1.1;
    return c;
}

AgentConfig commandConfig(const QString &command, int timeoutMs = 30000)
{
    AgentConfig config;
    config.kind = QStringLiteral("command");
    config.command = command;
    config.timeoutMs = timeoutMs;
    return config;
}

AgentOutcome proposeAsync(DiscoveryAgent &agent, const AttemptContext &context, std::atomic_bool &cancel,
                          const std::function<void()> &whileRunning = {})
{
    QFuture<AgentOutcome> future = QtConcurrent::run([&] { return agent.propose(context, cancel); });
    if (whileRunning)
        whileRunning();
    [&] { QTRY_VERIFY_WITH_TIMEOUT(future.isFinished(), 60000); }();
    return future.isFinished() ? future.result() : AgentOutcome::failure(QStringLiteral("test: never finished"));
}

/// Running (a zombie waiting for its reaper counts as gone).
bool processAlive(pid_t pid)
{
    if (::kill(pid, 0) != 0 && errno == ESRCH)
        return false;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    const qsizetype paren = line.lastIndexOf(')');
    return !(paren > 0 && line.size() > paren + 2 && (line.at(paren + 2) == 'Z' || line.at(paren + 2) == 'X'));
}

} // namespace

class TestAgentCommand : public QObject
{
    Q_OBJECT
private slots:
    void writesFilesInItsWorkspace()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString ws = dir.filePath(QStringLiteral("attempts/3/b1a2"));
        QVERIFY(QDir().mkpath(ws));
        writeText(ws + QStringLiteral("/main.py"), QStringLiteral("print('parent')\n")); // the parent's copy
        const QString command = QStringLiteral(
            "cat > prompt.seen; printf 'print(42)\\n' > \"$DREAMRSI_PROGRAM_FILE\"; "
            "printf '# Idea\\nA table of answers.\\n' > proposal.md; echo done");
        auto made = createDiscoveryAgent(commandConfig(command), QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        QCOMPARE(agent->kind(), QStringLiteral("command"));
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, contextIn(ws), cancel);
        QVERIFY2(outcome.ok, qPrintable(outcome.error + outcome.log));
        QCOMPARE(outcome.program, QStringLiteral("print(42)\n"));
        QVERIFY(outcome.proposal.contains(QStringLiteral("A table of answers.")));
        const QString seen = readText(ws + QStringLiteral("/prompt.seen"));
        QVERIFY(seen.contains(QStringLiteral("STATEMENT-MARKER")));        // the prompt came on stdin
        QVERIFY(seen.contains(QStringLiteral("proposal.md")));             // Files mode tells it what to write
        QVERIFY(seen.contains(QStringLiteral("print('parent')")));
        QCOMPARE(outcome.usage.calls, 1);
        QVERIFY(outcome.log.contains(QStringLiteral("written by the command")));
    }

    void programFromStdout()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString command = QStringLiteral(
            "cat > /dev/null; printf 'Use a greedy fill.\\n\\n```python\\nx = 1\\n```\\n'");
        auto made = createDiscoveryAgent(commandConfig(command), QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, contextIn(dir.path()), cancel);
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        QCOMPARE(outcome.program, QStringLiteral("x = 1\n"));
        QCOMPARE(outcome.proposal, QStringLiteral("Use a greedy fill."));
    }

    void leavesNoProgram()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeText(dir.filePath(QStringLiteral("main.py")), QStringLiteral("print('parent')\n"));
        auto made = createDiscoveryAgent(commandConfig(QStringLiteral("cat > /dev/null; echo thinking only")), QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, contextIn(dir.path()), cancel);
        QVERIFY(!outcome.ok);
        QVERIFY2(outcome.error.contains(QStringLiteral("left no program")), qPrintable(outcome.error));
        QVERIFY(outcome.error.contains(QStringLiteral("unchanged")));
    }

    void failingCommand()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto made = createDiscoveryAgent(commandConfig(QStringLiteral("echo 'no credits left' >&2; exit 3")), QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, contextIn(dir.path()), cancel);
        QVERIFY(!outcome.ok);
        QVERIFY2(outcome.error.contains(QStringLiteral("code 3")), qPrintable(outcome.error));
        QVERIFY(outcome.error.contains(QStringLiteral("no credits left")));
    }

    void timeLimitKillsTheProcessGroup()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // A child left running in the background, and the command waiting forever.
        const QString command = QStringLiteral("sleep 1000 & echo $! > child.pid; sleep 1000");
        auto made = createDiscoveryAgent(commandConfig(command, 1500), QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, contextIn(dir.path()), cancel);
        QVERIFY(!outcome.ok);
        QVERIFY(!outcome.cancelled);
        QVERIFY2(outcome.error.contains(QStringLiteral("time limit")), qPrintable(outcome.error));
        QVERIFY(outcome.error.contains(QStringLiteral("process group was killed")));
        bool ok = false;
        const pid_t child = pid_t(readText(dir.filePath(QStringLiteral("child.pid"))).trimmed().toInt(&ok));
        QVERIFY(ok && child > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(child), 10000);
    }

    void cancelStopsTheCommand()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto made = createDiscoveryAgent(commandConfig(QStringLiteral("touch started; sleep 1000"), 600000), QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, contextIn(dir.path()), cancel, [&] {
            QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(dir.filePath(QStringLiteral("started"))), 20000);
            cancel = true;
        });
        QVERIFY(!outcome.ok);
        QVERIFY(outcome.cancelled);
    }

    void environmentCarriesOnlyWhatIsAllowed()
    {
        qputenv("DREAMRSI_TEST_NOT_ALLOWED", "hidden-value-77");
        qputenv("DREAMRSI_TEST_ALLOWED", "visible-value-55");
        qputenv("DREAMRSI_TEST_API_KEY", "sk-PLANTED-123");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        AgentConfig config = commandConfig(QStringLiteral(
            "cat > /dev/null; env > env.seen; echo \"my key is $DREAMRSI_TEST_API_KEY\"; "
            "printf 'print(1)\\n' > main.py"));
        config.allowedEnvironment = {QStringLiteral("DREAMRSI_TEST_ALLOWED"), QStringLiteral("DREAMRSI_TEST_API_KEY"),
                                     QStringLiteral("DREAMRSI_TEST_LITERAL=given")};
        auto made = createDiscoveryAgent(config, QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, contextIn(dir.path()), cancel);
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        const QString env = readText(dir.filePath(QStringLiteral("env.seen")));
        QVERIFY(env.contains(QStringLiteral("DREAMRSI_TEST_ALLOWED=visible-value-55")));
        QVERIFY(env.contains(QStringLiteral("DREAMRSI_TEST_LITERAL=given")));
        QVERIFY(env.contains(QStringLiteral("DREAMRSI_PROGRAM_FILE=main.py")));
        QVERIFY(env.contains(QStringLiteral("PATH=")));
        QVERIFY(!env.contains(QStringLiteral("DREAMRSI_TEST_NOT_ALLOWED")));
        QVERIFY(!env.contains(QStringLiteral("hidden-value-77")));
        // The allowed key reached the command, but what comes back never shows it.
        QVERIFY(env.contains(QStringLiteral("DREAMRSI_TEST_API_KEY=sk-PLANTED-123")));
        QVERIFY(!outcome.log.contains(QStringLiteral("sk-PLANTED-123")));
        QVERIFY(!outcome.proposal.contains(QStringLiteral("sk-PLANTED-123")));
        QVERIFY(outcome.log.contains(QStringLiteral("my key is [hidden]")));
        qunsetenv("DREAMRSI_TEST_NOT_ALLOWED");
        qunsetenv("DREAMRSI_TEST_ALLOWED");
        qunsetenv("DREAMRSI_TEST_API_KEY");
    }

    void writesOutsideTheWorkspaceAreIgnored()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString ws = dir.filePath(QStringLiteral("ws"));
        QVERIFY(QDir().mkpath(ws));
        writeText(ws + QStringLiteral("/main.py"), QStringLiteral("print('parent')\n"));
        const QString command = QStringLiteral(
            "cat > /dev/null; printf 'print(\"outside\")\\n' > ../main.py; printf '# outside\\n' > ../proposal.md; "
            "printf 'print(\"inside\")\\n' > main.py");
        auto made = createDiscoveryAgent(commandConfig(command), QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, contextIn(ws), cancel);
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        QCOMPARE(outcome.program, QStringLiteral("print(\"inside\")\n"));
        QVERIFY(!outcome.proposal.contains(QStringLiteral("outside")));
    }

    void chatModelOnStdout()
    {
        AgentConfig config = commandConfig(QStringLiteral(
            "grep -c STATEMENT-MARKER > /dev/null && printf 'A plan.\\n\\n```cpp\\nint main() { return 0; }\\n```\\n'"));
        auto made = createChatModel(config);
        QVERIFY2(made, qPrintable(made.error));
        std::shared_ptr<ChatModel> model = std::move(*made.value);
        QCOMPARE(model->kind(), QStringLiteral("command"));
        auto agentMade = createChatDiscoveryAgent(model, config);
        QVERIFY2(agentMade, qPrintable(agentMade.error));
        auto agent = std::move(*agentMade.value);
        QTemporaryDir dir;
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, contextIn(dir.path()), cancel);
        QVERIFY2(outcome.ok, qPrintable(outcome.error + outcome.log));
        QCOMPARE(outcome.program, QStringLiteral("int main() { return 0; }\n"));
        QCOMPARE(outcome.proposal, QStringLiteral("A plan."));
    }

    void configurationErrors()
    {
        QString error;
        error = createDiscoveryAgent(commandConfig(QStringLiteral("  ")), QString()).error;
        QVERIFY(!error.isEmpty());
        QVERIFY(error.contains(QStringLiteral("needs a command")));
        AgentConfig config = commandConfig(QStringLiteral("true"));
        config.promptFile = QStringLiteral("/nonexistent/prompt.md");
        error = createDiscoveryAgent(config, QString()).error;
        QVERIFY(!error.isEmpty());
        QVERIFY2(error.contains(QStringLiteral("/nonexistent/prompt.md")), qPrintable(error));
    }

    void presets()
    {
        const QList<CommandAgentPreset> presets = commandAgentPresets();
        QVERIFY(presets.size() >= 3);
        for (const CommandAgentPreset &p : presets) {
            QVERIFY(!p.name.isEmpty());
            QVERIFY(!p.command.isEmpty());
            QVERIFY(!p.allowedEnvironment.isEmpty());
            QCOMPARE(commandAgentPreset(p.name).command, p.command);
        }
        QVERIFY(commandAgentPreset(QStringLiteral("no-such-agent")).name.isEmpty());
        // Codex 0.169 rejects --full-auto ("unexpected argument").
        QVERIFY(!commandAgentPreset(QStringLiteral("codex")).command.contains(QStringLiteral("--full-auto")));
        // A tool from npm names the release it was run with, and lets its base-URL variable through.
        for (const QString &name : {QStringLiteral("claude-code"), QStringLiteral("codex"), QStringLiteral("gemini-cli")}) {
            const CommandAgentPreset p = commandAgentPreset(name);
            QVERIFY2(p.checkedWith.contains(u'@'), qPrintable(name));
            QVERIFY2(std::any_of(p.allowedEnvironment.cbegin(), p.allowedEnvironment.cend(),
                                 [](const QString &e) { return e.endsWith(QLatin1String("_BASE_URL")); }),
                     qPrintable(name));
        }
    }

    void presetByName()
    {
        // --command preset:NAME: the preset's command, its variables added to
        // those the user allowed (a value the user gave wins).
        AgentConfig given;
        given.command = QStringLiteral(" preset:claude-code ");
        given.allowedEnvironment = {QStringLiteral("ANTHROPIC_BASE_URL=http://127.0.0.1:9")};
        const Result<AgentConfig> resolved = resolveCommandPreset(given);
        QVERIFY2(resolved, qPrintable(resolved.error));
        QCOMPARE(resolved.value->command, commandAgentPreset(QStringLiteral("claude-code")).command);
        const QStringList &allowed = resolved.value->allowedEnvironment;
        QVERIFY(allowed.contains(QStringLiteral("ANTHROPIC_API_KEY")));
        QVERIFY(allowed.contains(QStringLiteral("DISABLE_TELEMETRY=1")));
        QCOMPARE(allowed.filter(QStringLiteral("ANTHROPIC_BASE_URL")), QStringList{QStringLiteral("ANTHROPIC_BASE_URL=http://127.0.0.1:9")});
        // Any other command is left alone.
        AgentConfig plain;
        plain.command = QStringLiteral("claude -p");
        const Result<AgentConfig> left = resolveCommandPreset(plain);
        QVERIFY2(left, qPrintable(left.error));
        QCOMPARE(left.value->command, QStringLiteral("claude -p"));
        QVERIFY(left.value->allowedEnvironment.isEmpty());
        // An unknown preset is refused, naming the known ones.
        QString error = createDiscoveryAgent(commandConfig(QStringLiteral("preset:cursor")), QString()).error;
        QVERIFY(!error.isEmpty());
        QVERIFY2(error.contains(QStringLiteral("unknown command preset 'cursor'")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("preset:codex")), qPrintable(error));
        AgentConfig chat = commandConfig(QStringLiteral("preset:cursor"));
        error = createChatModel(chat).error;
        QVERIFY(!error.isEmpty());
        QVERIFY2(error.contains(QStringLiteral("unknown command preset")), qPrintable(error));
    }

    void presetCarriesKeyAndBaseUrl()
    {
        // The codex preset run with a stand-in `codex` on PATH (the real one
        // is tst_agent_presets'): the key and the base URL reach it, the
        // provider it selects for that URL is on its command line, nothing
        // else of ours does, and the key never comes back.
        QTemporaryDir bin;
        QTemporaryDir dir;
        QVERIFY(bin.isValid() && dir.isValid());
        writeText(bin.filePath(QStringLiteral("codex")),
                  QStringLiteral("#!/bin/sh\nenv > env.seen\nprintf '%s\\n' \"$@\" > args.seen\ncat > prompt.seen\n"
                                 "printf 'Done, key %s.\\n\\n```python\\nVALUE = 3\\n```\\n' \"$OPENAI_API_KEY\"\n"));
        QVERIFY(QFile::setPermissions(bin.filePath(QStringLiteral("codex")), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", QFile::encodeName(bin.path()) + ':' + path);
        qputenv("OPENAI_API_KEY", "sk-PRESET-4242");
        qputenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1");
        qputenv("DREAMRSI_TEST_NOT_ALLOWED", "hidden-value-78");
        const auto restore = qScopeGuard([&] {
            qputenv("PATH", path);
            qunsetenv("OPENAI_API_KEY");
            qunsetenv("OPENAI_BASE_URL");
            qunsetenv("DREAMRSI_TEST_NOT_ALLOWED");
        });
        auto made = createDiscoveryAgent(commandConfig(QStringLiteral("preset:codex")), QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, contextIn(dir.path()), cancel);
        QVERIFY2(outcome.ok, qPrintable(outcome.error + outcome.log));
        QCOMPARE(outcome.program, QStringLiteral("VALUE = 3\n"));
        const QString env = readText(dir.filePath(QStringLiteral("env.seen")));
        QVERIFY(env.contains(QStringLiteral("OPENAI_API_KEY=sk-PRESET-4242")));
        QVERIFY(env.contains(QStringLiteral("OPENAI_BASE_URL=http://127.0.0.1:1/v1")));
        QVERIFY(!env.contains(QStringLiteral("hidden-value-78")));
        const QStringList args = readText(dir.filePath(QStringLiteral("args.seen"))).split(u'\n');
        QVERIFY2(args.contains(QStringLiteral("exec")) && args.contains(QStringLiteral("workspace-write")), qPrintable(args.join(u' ')));
        QVERIFY2(args.contains(QStringLiteral("model_provider=dreamrsi")), qPrintable(args.join(u' ')));
        QVERIFY2(args.contains(QStringLiteral("model_providers.dreamrsi={name=\"OpenAI-compatible\", base_url=\"http://127.0.0.1:1/v1\", "
                                              "env_key=\"OPENAI_API_KEY\", wire_api=\"responses\", supports_websockets=false}")),
                 qPrintable(args.join(u' ')));
        QCOMPARE(args.last(), QString()); // after "-" (stdin) the file ends
        QVERIFY(args.contains(QStringLiteral("-")));
        QVERIFY(readText(dir.filePath(QStringLiteral("prompt.seen"))).contains(QStringLiteral("STATEMENT-MARKER")));
        QVERIFY(!outcome.log.contains(QStringLiteral("sk-PRESET-4242")));
        QVERIFY(!outcome.proposal.contains(QStringLiteral("sk-PRESET-4242")));
        QVERIFY(outcome.proposal.contains(QStringLiteral("[hidden]")));

        // Without a base URL it is Codex's own provider.
        qunsetenv("OPENAI_BASE_URL");
        QTemporaryDir plain;
        const AgentOutcome again = proposeAsync(*agent, contextIn(plain.path()), cancel);
        QVERIFY2(again.ok, qPrintable(again.error));
        QVERIFY(!readText(plain.filePath(QStringLiteral("args.seen"))).contains(QStringLiteral("model_provider")));
    }

    // docs/online.md's command-line agents agree with the code (issue 53):
    // presets are used by name, each named with the start of its command,
    // and nothing of a flag a tool dropped.
    void docsNameThePresets()
    {
        QFile doc(QStringLiteral(DREAMRSI_SOURCE_DIR "/docs/online.md"));
        QVERIFY(doc.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(doc.readAll());
        const qsizetype start = text.indexOf(QStringLiteral("### Command-line agents"));
        QVERIFY(start >= 0);
        const qsizetype end = text.indexOf(QStringLiteral("\n### "), start + 1);
        QString section = text.mid(start, end - start);
        section.replace(QLatin1Char('\n'), QLatin1Char(' '));
        while (section.contains(QStringLiteral("  ")))
            section.replace(QStringLiteral("  "), QStringLiteral(" "));
        QVERIFY2(section.contains(QStringLiteral("`--command ") + QLatin1String(commandPresetPrefix) + QStringLiteral("NAME`")),
                 qPrintable(section));
        QVERIFY(!section.contains(QStringLiteral("offers them by name")));
        for (const CommandAgentPreset &p : commandAgentPresets()) {
            // "`codex` (`codex exec --sandbox workspace-write": the name and its command's first three words.
            const QString head = p.command.section(QLatin1Char(' '), 0, 2);
            QVERIFY2(section.contains(QStringLiteral("`%1` (`%2").arg(p.name, head)), qPrintable(p.name + QStringLiteral(": ") + head));
        }
        QVERIFY(!section.contains(QStringLiteral("`codex exec --full-auto")));
    }
};

QTEST_GUILESS_MAIN(TestAgentCommand)
#include "tst_agent_command.moc"
