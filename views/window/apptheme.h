#pragma once

#include "session/appsettings.h"

namespace dreamrsi {

/// The application-wide look: the system palette, or Fusion with the light
/// or dark palette of the workbench.
namespace AppTheme {
/// Applies `theme` to the application; returns whether it is dark.
bool apply(AppSettings::Theme theme);
}

} // namespace dreamrsi
