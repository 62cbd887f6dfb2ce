#pragma once

#include "figureexport.h"
#include "figuretable.h"

#include <QString>

namespace dreamrsi {

/// What a page offers to File ▸ Export Figure: the main window asks the
/// page on screen, so that it never needs to know which page draws what.
class FigureSource
{
public:
    virtual ~FigureSource() = default;

    /// The figure's name in the export dialog ("Frontiers").
    virtual QString figureName() const = 0;
    /// Paints the figure as it goes into a paper (light palette, the paper
    /// layout for the size asked), leaving the screen as it was; empty when
    /// the page has nothing to export now.
    virtual FigureExport::Painter figurePainter() = 0;
    /// The figure's numbers, written next to it as CSV; empty when none.
    virtual FigureTable figureData() const = 0;
};

} // namespace dreamrsi
