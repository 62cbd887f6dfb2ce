#pragma once

#include "session/appsettings.h"

#include <QList>

class QAction;
class QIcon;
class QWidget;

namespace dreamrsi {

/// The application-wide look: the system palette, or Fusion with the light
/// or dark palette of the workbench.
namespace AppTheme {
/// Applies `theme` to the application; returns whether it is dark.
bool apply(AppSettings::Theme theme);
/// The icons of `actions` readable on the palette: dark icons (an icon
/// theme's black symbolic ones) are drawn in the palette's text colour on
/// a dark palette, and get their own icon back on a light one.
void adaptIcons(const QList<QAction *> &actions, bool dark);
/// Whether an icon is dark enough to vanish on a dark palette.
bool isDarkIcon(const QIcon &icon);
/// Qt Charts under `root` (the live round's score and cost charts) take the
/// palette: background, axes, grid, titles and legend.
void styleCharts(QWidget *root, bool dark);
}

} // namespace dreamrsi
