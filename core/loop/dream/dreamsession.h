#pragma once

// A dream's preparation, decided once (docs/online.md#dreaming): `dreamrsi
// dream`, the loop's dreams, the counterfactual command and the workbench's
// Dream dialog say what they want as DreamOptions and get the history, the
// developer and the settings from DreamSession::prepare.

#include "dreamer.h"
#include "policydeveloper.h"

#include "base/result.h"

#include <QString>
#include <QStringList>

#include <memory>

namespace dreamrsi {

class ProjectStore;

/// What a dream is asked to do, without a command line: who develops the
/// versions (the built-in improver, a chat model on a provider, or a
/// command), the dream's settings, and whether approximate worlds join the
/// history. app/cli reads it from flags; the Dream dialog from its form.
struct DreamOptions
{
    DreamSettings settings;
    QString agentKind = QStringLiteral("builtin"); ///< builtin = the built-in improver
    QString model;
    QString baseUrl;
    QString command;    ///< the command line of agent kind `command`
    QString promptPath; ///< a file replacing the policy-development prompt; empty = the built-in one
    /// Approximate worlds (imported runs with forks or orphans) join the history only when asked.
    bool includeApproximate = false;

    /// Kinds `agentKind` may be.
    static QStringList kinds();
    /// Why these options cannot dream (an unknown kind, a command kind
    /// without a command), or empty.
    QString problem() const;
    /// The built-in improver, or the policy-development agent on the chat
    /// model the options name; a failure when it cannot be made (a missing
    /// key, an unreadable prompt file).
    Result<std::shared_ptr<PolicyDeveloper>> createDeveloper() const;
};

/// Everything a Dreamer runs with.
struct PreparedDream
{
    QList<DreamWorld> history;
    int approximateLeftOut = 0;
    std::shared_ptr<PolicyDeveloper> developer;
    DreamSettings settings;
};

namespace DreamSession {

/// Checks `options`, makes the developer and reads the history from the
/// open project in `store` (Dreamer::finishedWorlds: its finished
/// iterations, approximate ones only when asked). A failure says what is
/// wrong: the options, the developer, the store, or a project without a
/// finished iteration. Blocks on the store: not for the GUI thread.
Result<PreparedDream> prepare(ProjectStore &store, const DreamOptions &options);

} // namespace DreamSession
} // namespace dreamrsi
