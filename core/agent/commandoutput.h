#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace dreamrsi {

/// Helpers shared by the command-line agent and chat model.
namespace CommandOutput {

/// The last `limit` characters of `bytes` as text, with a note when cut.
QString tail(const QByteArray &bytes, int limit);
/// `text` with the values of the allowed variables whose names look secret
/// (KEY, TOKEN, SECRET, PASSWORD, PASSWD, CREDENTIAL) replaced by "[hidden]".
QString hideSecrets(QString text, const QStringList &allowedEnvironment);
/// Model name of a command agent: AgentConfig::model, else "command".
QString modelName(const QString &configuredModel);

} // namespace CommandOutput

} // namespace dreamrsi
