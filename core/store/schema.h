#pragma once

#include "base/result.h"

#include <QString>

namespace dreamrsi {

class SqliteConnection;

/// The project database schema and its forward migrations (internal).
///
/// Version history (PRAGMA user_version):
///   1  project, policy_versions, iterations, cells, artifacts, cell_artifacts
///   2  replay_results, approvals (dreaming and redeploy)
///   3  iteration status 'stopped' (iterations table rebuilt)
///   4  iterations.rounds_limit and calls_limit (a live round's limits)
///   5  replay_config: the project's one replay configuration
///   6  steering_events (interventions on live rounds, approval waits)
///   7  replay_config.valuation and completions; replay_results keyed by completion
///   8  reevaluations: repeated evaluations of stored cells
///   9  replay_config.rule; replay_results keyed by the imagination rule
///  10  the rule `uncertain` (replay_config and replay_results rebuilt)
///  11  the rule `anchored` (the same two tables rebuilt)
///  12  artifacts.content: artifacts up to ArtifactStore::InlineLimit kept in the row
/// A database is recognised as a project by PRAGMA application_id.
namespace Schema {

inline constexpr int CurrentVersion = 12;
inline constexpr int ApplicationId = 0x44525349; // "DRSI"

/// SQL that brings a database from version `v - 1` to `v` (1 ≤ v ≤ CurrentVersion).
const char *migrationTo(int v);

/// Sets the connection's pragmas (foreign keys, busy timeout; WAL and
/// synchronous for writers).
Result<Done> configure(SqliteConnection &db, bool writer);

/// Checks the application id and version of an opened database and, when
/// `migrate` is true, migrates it forward (each step one transaction) or
/// initialises an empty one when `initialise` is true. Errors name the file
/// and say what is wrong. The final version, or the failure.
Result<int> prepare(SqliteConnection &db, bool migrate, bool initialise);

/// Checks a database at CurrentVersion before it is used: SQLite's
/// `PRAGMA quick_check` (damaged pages, broken indexes) and the schema itself
/// (every table and column this version writes and reads is there; flipped
/// bytes in the stored CREATE statements show here). A failure names the file
/// and the damage: the first few problems SQLite reports, or the missing
/// table or column. prepare() calls it.
Result<Done> checkIntegrity(SqliteConnection &db);

} // namespace Schema
} // namespace dreamrsi
