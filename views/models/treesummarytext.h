#pragma once

#include "model/discoverytree.h"

#include <QCoreApplication>
#include <QString>

namespace dreamrsi {

/// The one-line summary of a tree shown above the Discovery and Cells tabs
/// and in the project dock ("67 cells, 8 branches, …"), in the user's
/// language. `dreamrsi validate` keeps printing summarizeTree() (English).
class TreeSummaryText final
{
    Q_DECLARE_TR_FUNCTIONS(TreeSummaryText)
public:
    static QString of(const DiscoveryTree &tree);
};

} // namespace dreamrsi
