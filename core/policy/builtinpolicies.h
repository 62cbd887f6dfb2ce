#pragma once

#include "policy.h"

#include <QString>
#include <QStringList>

#include <memory>

namespace dreamrsi {

/// The built-in C++ policies and their editable JavaScript twins
/// (resources/policies/NAME.js, compiled in as :/policies/NAME.js). A twin
/// gives results identical to its C++ policy.
namespace BuiltinPolicies {

/// "parallel_refine", "portfolio".
QStringList names();
/// A new C++ policy, or nullptr for an unknown name.
std::unique_ptr<Policy> create(const QString &name);
/// The JavaScript twin's source; empty for an unknown name.
QString javaScriptSource(const QString &name);

} // namespace BuiltinPolicies
} // namespace dreamrsi
