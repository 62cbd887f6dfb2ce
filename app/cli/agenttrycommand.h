#pragma once

#include <QStringList>
#include <QTextStream>

namespace dreamrsi {

/// `dreamrsi agent try`: one discovery-agent attempt from a task's initial
/// program in a temporary workspace, then the sandboxed evaluator; prints the
/// proposal, the program's size, the verdict and the agent's usage. Exit 0
/// when the agent produced a program (whatever the verdict), 1 on an agent
/// failure, 2 on bad usage.
int runAgentCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
