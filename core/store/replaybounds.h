#pragma once

// The bounds of a replay configuration (docs/online.md#the-replay-configuration),
// decided here once: the project store refuses a configuration outside them,
// every command-line flag that sets W, λ, K or C reads them (app/cli
// ReplayConfigFlags), and the Settings dialog's spin boxes stop at them.
namespace dreamrsi::ReplayBounds {

inline constexpr int MinWorkers = 1;          ///< W
inline constexpr int MaxWorkers = 10000;
inline constexpr double MaxLambda = 1000.0;   ///< λ in [0, MaxLambda]
inline constexpr int MinRounds = 1;           ///< K, when there is a limit
inline constexpr int MaxRounds = 1000000;
inline constexpr int MinCompletions = 1;      ///< C
inline constexpr int MaxCompletions = 1000;

} // namespace dreamrsi::ReplayBounds
