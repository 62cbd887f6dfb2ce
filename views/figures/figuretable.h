#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace dreamrsi {

/// The numbers a compact figure legend leaves out, as a small table that
/// goes beside the figure into a caption: one row per series.
struct FigureTable
{
    QStringList header;
    QList<QStringList> rows;

    bool isEmpty() const { return rows.isEmpty(); }
    /// Columns padded to a common width, one line per row, header first.
    QString toText() const;
    /// A LaTeX `tabular` (booktabs rules), special characters escaped.
    QString toLatex() const;
    /// RFC 4180 CSV with the header as the first line.
    QString toCsv() const;
};

} // namespace dreamrsi
