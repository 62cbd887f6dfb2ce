#include "policy.h"

namespace dreamrsi {

Policy::~Policy() = default;

GridPlanResult Policy::planGrid(const GridContext &context)
{
    return {context.fallback, QString()};
}

} // namespace dreamrsi
