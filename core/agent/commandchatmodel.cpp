#include "commandchatmodel.h"

#include "commandoutput.h"
#include "commandprocess.h"
#include "explorationprompt.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

namespace dreamrsi {

CommandChatModel::CommandChatModel(const AgentConfig &config)
    : m_config(config)
{
    m_config.apiKey.clear();
}

QString CommandChatModel::model() const
{
    return CommandOutput::modelName(m_config.model);
}

ChatResponse CommandChatModel::complete(const ChatRequest &request, const std::atomic_bool &cancel)
{
    ChatResponse response;
    response.usage.model = model();
    response.usage.calls = 0;
    QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/dreamrsi-chat-XXXXXX"));
    if (!dir.isValid()) {
        response.error = QStringLiteral("cannot create a working directory for the command: %1").arg(dir.errorString());
        return response;
    }
    const QByteArray prompt = ExplorationPrompt::joined(request).toUtf8();
    const QString promptPath = dir.filePath(QStringLiteral("prompt.md"));
    QFile promptFile(promptPath);
    if (!promptFile.open(QIODevice::WriteOnly) || promptFile.write(prompt) != prompt.size()) {
        response.error = QStringLiteral("cannot write the prompt file %1: %2").arg(promptPath, promptFile.errorString());
        return response;
    }
    promptFile.close();

    CommandSpec spec;
    spec.command = m_config.command;
    spec.workDir = dir.path();
    spec.input = prompt;
    spec.allowedEnvironment = m_config.allowedEnvironment;
    spec.extraEnvironment = {{QStringLiteral("DREAMRSI_PROMPT_FILE"), promptPath}};
    spec.timeoutMs = m_config.timeoutMs;
    const CommandResult run = CommandProcess::run(spec, cancel);
    response.usage.latencyS = run.seconds;
    response.usage.calls = run.started ? 1 : 0;
    QString log = QStringLiteral("command: %1\nprompt: %2 characters; ended after %3 s, exit code %4\n")
                      .arg(m_config.command)
                      .arg(prompt.size())
                      .arg(run.seconds, 0, 'f', 2)
                      .arg(run.exitCode);
    if (!run.err.isEmpty())
        log += QStringLiteral("--- stderr ---\n") + CommandOutput::tail(run.err, 20000) + u'\n';
    if (!run.started)
        response.error = QStringLiteral("the command did not start: %1").arg(run.startError);
    else if (run.cancelled) {
        response.cancelled = true;
        response.error = QStringLiteral("cancelled");
    } else if (run.timedOut)
        response.error = QStringLiteral("the command did not finish within the time limit of %1 s; its process group "
                                        "was killed")
                             .arg(double(m_config.timeoutMs) / 1000.0);
    else if (run.crashed || run.exitCode != 0)
        response.error = QStringLiteral("the command exited with code %1; stderr ends with: %2")
                             .arg(run.exitCode)
                             .arg(CommandOutput::tail(run.err, 1500).trimmed());
    else if (run.out.trimmed().isEmpty())
        response.error = QStringLiteral("the command printed no answer on stdout");
    else {
        response.ok = true;
        response.text = QString::fromUtf8(run.out);
    }
    response.error = CommandOutput::hideSecrets(response.error, m_config.allowedEnvironment);
    response.text = CommandOutput::hideSecrets(response.text, m_config.allowedEnvironment);
    response.log = CommandOutput::hideSecrets(log, m_config.allowedEnvironment);
    return response;
}

} // namespace dreamrsi
