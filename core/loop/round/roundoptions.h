#pragma once

#include "roundtypes.h"
#include "backend/slurmsettings.h"

#include <optional>

namespace dreamrsi {

/// What a live round is started from, the same whoever starts it: the
/// round's configuration and where its evaluations run
/// (docs/online.md#commands). `dreamrsi round` and `dreamrsi loop` read it
/// from their command lines with one parser (app/cli/roundcommandline), the
/// workbench from Launch Round (LaunchRoundDialog::options);
/// RoundSession::prepare makes a round of it.
struct RoundOptions
{
    /// The round. For a resume (`round.resume`), an empty task means the
    /// iteration's own, read by RoundSession::prepare.
    RoundConfig round;
    /// Evaluate on a Slurm cluster with these settings; none: on this machine.
    std::optional<SlurmSettings> slurm;
};

} // namespace dreamrsi
