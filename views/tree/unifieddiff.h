#pragma once

// The line diff moved to core/model, so the CLI (`dreamrsi path`) and the
// views share it; this header keeps the views' includes working.
#include "model/unifieddiff.h"
