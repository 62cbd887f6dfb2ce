#pragma once

#include "loop/dream/dreamer.h"
#include "loop/dream/policydeveloper.h"

#include <QCommandLineParser>

#include <memory>

namespace dreamrsi {

/// The dreaming options shared by `dreamrsi dream` and `dreamrsi loop`.
struct DreamOptions
{
    DreamSettings settings;
    QString agentKind = QStringLiteral("builtin"); ///< builtin = the built-in improver
    QString model;
    QString baseUrl;
    QString command;
    QString promptPath;

    /// Registers the options. `agentOption` is "agent" for dream and
    /// "dream-agent" for loop; with `shared` false the options a round also
    /// has (--model, --base-url, --command, --seed) are left to the caller to
    /// register, and the replays' W is --replay-workers (--workers being the
    /// round's). --workers/--replay-workers, --lambda, --betas and
    /// --replay-rounds override the project's replay configuration for this
    /// run only; unset, the project's applies (settings.replay stays empty).
    static void add(QCommandLineParser &parser, const QString &agentOption = QStringLiteral("agent"), bool shared = true);
    /// Reads and checks them; a failure naming the option on bad input.
    static Result<DreamOptions> read(const QCommandLineParser &parser, const QString &agentOption = QStringLiteral("agent"),
                                     bool shared = true);
    /// The option that overrides the replays' W: "workers", or "replay-workers" when not `shared`.
    static QString workersOption(bool shared);
    /// The built-in improver, or the policy-development agent on the chat
    /// model the options name; a failure when it cannot be made.
    Result<std::shared_ptr<PolicyDeveloper>> createDeveloper() const;
    /// Kinds --agent accepts.
    static QStringList kinds();
};

} // namespace dreamrsi
