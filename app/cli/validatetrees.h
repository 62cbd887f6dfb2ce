#pragma once

#include <QStringList>
#include <QTextStream>

#include <optional>

namespace dreamrsi {

/// `dreamrsi validate FILE…` (no option) when every file is a tree file, as
/// the launcher runs it (validatetrees.cpp): the same lines and exit status
/// as runValidateCommand(); nothing, having printed nothing, when a file
/// may be a run (a folder, an SQLite file), which runValidateCommand() reads.
std::optional<int> runValidateTreeFilesCommand(const QStringList &files, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
