#pragma once

// qcustomplot.h uses Qt's `foreach` in inline code, which QT_NO_FOREACH (on
// for the whole project) removes. Give it a range-for for the duration of
// the include only; our own code never sees the macro.
#define foreach(variable, container) for (variable : container)
#include <qcustomplot.h>
#undef foreach
