#include "commandagent.h"

#include "answerparser.h"
#include "commandagentpresets.h"
#include "commandchatmodel.h"
#include "commandoutput.h"
#include "commandprocess.h"
#include "pricetable.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>

#include <optional>

namespace dreamrsi {

namespace {

std::optional<QByteArray> readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    return file.readAll();
}

} // namespace

CommandAgent::CommandAgent(const AgentConfig &config, ExplorationPrompt prompt)
    : m_config(config)
    , m_prompt(std::move(prompt))
{
    m_config.apiKey.clear();
}

QString CommandAgent::model() const
{
    return CommandOutput::modelName(m_config.model);
}

AgentOutcome CommandAgent::propose(const AttemptContext &context, const std::atomic_bool &cancel)
{
    AgentUsage usage;
    usage.model = model();
    usage.calls = 0;
    QString log = QStringLiteral("attempt %1 (iteration %2), command agent\n").arg(context.cellId).arg(context.iteration);
    auto fail = [&](const QString &message, bool cancelled = false) {
        const QString clean = CommandOutput::hideSecrets(message, m_config.allowedEnvironment);
        log += (cancelled ? QStringLiteral("cancelled\n") : QStringLiteral("failed: ") + clean + u'\n');
        AgentOutcome outcome = AgentOutcome::failure(clean, usage, CommandOutput::hideSecrets(log, m_config.allowedEnvironment));
        outcome.cancelled = cancelled;
        return outcome;
    };
    if (context.workspaceDir.isEmpty())
        return fail(QStringLiteral("the attempt has no workspace directory for the command to run in"));
    const QString programFile = context.programFileName.isEmpty() ? QStringLiteral("main.py") : context.programFileName;
    const QDir workspace(context.workspaceDir);
    if (!workspace.exists() && !QDir().mkpath(context.workspaceDir))
        return fail(QStringLiteral("cannot create the workspace %1").arg(context.workspaceDir));
    const QString programPath = workspace.absoluteFilePath(programFile);
    const QString proposalPath = workspace.absoluteFilePath(QStringLiteral("proposal.md"));
    const std::optional<QByteArray> programBefore = readFile(programPath);
    const std::optional<QByteArray> proposalBefore = readFile(proposalPath);

    ExplorationPrompt::History history;
    const ChatRequest request = m_prompt.build(context, ExplorationPrompt::Mode::Files, m_config.promptBudgetChars, &history);
    const QByteArray prompt = ExplorationPrompt::joined(request).toUtf8();
    QTemporaryFile promptFile(QDir::tempPath() + QStringLiteral("/dreamrsi-prompt-XXXXXX.md"));
    if (!promptFile.open() || promptFile.write(prompt) != prompt.size() || !promptFile.flush())
        return fail(QStringLiteral("cannot write the prompt file: %1").arg(promptFile.errorString()));

    CommandSpec spec;
    spec.command = m_config.command;
    spec.workDir = workspace.absolutePath();
    spec.input = prompt;
    spec.allowedEnvironment = m_config.allowedEnvironment;
    spec.timeoutMs = m_config.timeoutMs;
    spec.extraEnvironment = {
        {QStringLiteral("DREAMRSI_PROMPT_FILE"), promptFile.fileName()},
        {QStringLiteral("DREAMRSI_WORKSPACE"), spec.workDir},
        {QStringLiteral("DREAMRSI_PROGRAM_FILE"), programFile},
        {QStringLiteral("DREAMRSI_PARENT_WORKSPACE"), context.parentWorkspaceDir},
        {QStringLiteral("DREAMRSI_BASELINE_DIR"), context.baselineDir},
        {QStringLiteral("DREAMRSI_ATTEMPT_ID"), context.cellId},
        {QStringLiteral("DREAMRSI_TASK"), context.task},
    };
    log += QStringLiteral("command: %1\nin: %2\nprompt: %3 characters (%4 earlier attempts: %5 in full, %6 summarised, "
                          "%7 counted), time limit %8 s\n")
               .arg(m_config.command, spec.workDir)
               .arg(prompt.size())
               .arg(context.history.size())
               .arg(history.full)
               .arg(history.summarised)
               .arg(history.counted)
               .arg(double(m_config.timeoutMs) / 1000.0);

    const CommandResult run = CommandProcess::run(spec, cancel);
    usage.latencyS = run.seconds;
    usage.calls = run.started ? 1 : 0;
    log += QStringLiteral("ended after %1 s, exit code %2%3\n")
               .arg(run.seconds, 0, 'f', 2)
               .arg(run.exitCode)
               .arg(run.outputCapped ? QStringLiteral(" (output cut at the cap)") : QString());
    if (!run.out.isEmpty())
        log += QStringLiteral("--- stdout ---\n") + CommandOutput::tail(run.out, 20000) + u'\n';
    if (!run.err.isEmpty())
        log += QStringLiteral("--- stderr ---\n") + CommandOutput::tail(run.err, 20000) + u'\n';
    if (!run.started)
        return fail(QStringLiteral("the command did not start: %1").arg(run.startError));
    if (run.cancelled)
        return fail(QStringLiteral("cancelled"), true);
    if (run.timedOut)
        return fail(QStringLiteral("the command did not finish within the time limit of %1 s; its process group was killed")
                        .arg(double(m_config.timeoutMs) / 1000.0));
    if (run.crashed)
        return fail(QStringLiteral("the command was ended by a signal; stderr ends with: %1")
                        .arg(CommandOutput::tail(run.err, 1500).trimmed()));
    if (run.exitCode != 0)
        return fail(QStringLiteral("the command exited with code %1; stderr ends with: %2")
                        .arg(run.exitCode)
                        .arg(CommandOutput::tail(run.err, 1500).trimmed()));

    const QString out = QString::fromUtf8(run.out);
    const ParsedAnswer answer = parseAnswer(out);
    const std::optional<QByteArray> programAfter = readFile(programPath);
    QString program;
    if (programAfter && !programAfter->trimmed().isEmpty() && programAfter != programBefore) {
        program = QString::fromUtf8(*programAfter);
        log += QStringLiteral("program: %1 (%2 bytes) written by the command\n").arg(programFile).arg(programAfter->size());
    } else if (answer.ok) {
        program = answer.program;
        log += QStringLiteral("program: the last fenced block of stdout (%1 characters)\n").arg(program.size());
    } else {
        return fail(QStringLiteral("the command left no program: %1 in its workspace is %2 and its output has no "
                                   "usable fenced code block (%3)")
                        .arg(programFile,
                             !programAfter ? QStringLiteral("missing")
                                           : (programAfter->trimmed().isEmpty() ? QStringLiteral("empty")
                                                                                : QStringLiteral("unchanged")),
                             answer.error));
    }
    const std::optional<QByteArray> proposalAfter = readFile(proposalPath);
    QString proposal;
    if (proposalAfter && !proposalAfter->trimmed().isEmpty() && proposalAfter != proposalBefore)
        proposal = QString::fromUtf8(*proposalAfter);
    else
        proposal = answer.ok ? answer.proposal : out.trimmed();

    AgentOutcome outcome;
    outcome.ok = true;
    outcome.program = program;
    outcome.proposal = CommandOutput::hideSecrets(proposal, m_config.allowedEnvironment);
    outcome.log = CommandOutput::hideSecrets(log, m_config.allowedEnvironment);
    usage.usd = PriceTable::current().usd(usage.model, usage.tokensIn, usage.tokensOut);
    outcome.usage = usage;
    return outcome;
}

Result<std::unique_ptr<DiscoveryAgent>> createCommandAgent(const AgentConfig &given)
{
    using Made = Result<std::unique_ptr<DiscoveryAgent>>;
    if (given.command.trimmed().isEmpty())
        return Made::failure(QStringLiteral("the command agent needs a command (--command \"...\" or --command preset:NAME)"));
    Result<AgentConfig> config = resolveCommandPreset(given);
    if (!config)
        return config.failureAs<std::unique_ptr<DiscoveryAgent>>();
    Result<ExplorationPrompt> prompt = ExplorationPrompt::load(*config.value);
    if (!prompt.ok())
        return prompt.failureAs<std::unique_ptr<DiscoveryAgent>>();
    return Made::success(std::make_unique<CommandAgent>(*config.value, std::move(*prompt.value)));
}

Result<std::unique_ptr<ChatModel>> createCommandChatModel(const AgentConfig &given)
{
    using Made = Result<std::unique_ptr<ChatModel>>;
    if (given.command.trimmed().isEmpty())
        return Made::failure(
            QStringLiteral("the command chat model needs a command (--command \"...\" or --command preset:NAME)"));
    Result<AgentConfig> config = resolveCommandPreset(given);
    if (!config)
        return config.failureAs<std::unique_ptr<ChatModel>>();
    return Made::success(std::make_unique<CommandChatModel>(*config.value));
}

} // namespace dreamrsi
