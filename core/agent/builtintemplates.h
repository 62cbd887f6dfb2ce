#pragma once

#include <QString>

namespace dreamrsi {

/// The built-in agent's program templates: Python, C++ and CUDA files of
/// their own under core/agent/templates/ (compiled in as
/// :/agent-templates/NAME), so they can be read, linted and diffed. Each
/// holds placeholders (@HEADER@, @NAME@ …) the task's writer fills in.
namespace BuiltinTemplates {
/// The template's text; a missing resource is a build error, so it is never empty.
QString load(const QString &name);
}

} // namespace dreamrsi
