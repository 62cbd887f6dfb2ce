#pragma once

#include "sandboxlimits.h"

#include "base/result.h"

#include <QString>
#include <QStringList>

#include <functional>

#include <sys/types.h>

namespace dreamrsi {

struct SandboxRequest;

/// The isolation policy of the evaluation sandbox (docs/evaluators.md#the-sandbox),
/// apart from running the process (SandboxRunner): who a run is, what it
/// may use, and what bubblewrap lets it see.
namespace SandboxIsolation {

/// Who the child runs as. As root it runs unprivileged (root ignores
/// RLIMIT_NPROC and may write anywhere): group `nogroup`, and a user id of
/// its own for each run (allocateRunUid()).
struct User
{
    bool dropRoot = false;
    uid_t uid = 0;
    gid_t gid = 0;
};
User user();

/// A user id of its own for each run started as root, outside the range of
/// real accounts: RLIMIT_NPROC then counts this run alone, and when the run
/// ends every process of that user can be killed (killAllOf()).
uid_t allocateRunUid();
/// Kills every process of `uid` (never 0).
void killAllOf(uid_t uid);
/// Whether this process may give a child an empty network namespace (root
/// with CAP_SYS_ADMIN; a container may deny it). Probed once, in a child.
bool networkNamespaceWorks();
/// Everything the child does between fork and exec: its own process group,
/// death with the parent, the resource limits, no network when
/// `isolateNetwork`, and the drop to `runUid`. Only async-signal-safe calls.
std::function<void()> childSetup(const SandboxLimits &limits, bool isolateNetwork, uid_t runUid);

/// bubblewrap on this machine: its executable, or why it cannot be used
/// (not installed, no user namespaces, DREAMRSI_SANDBOX=fallback). Probed once.
struct Bubblewrap
{
    QString executable;
    QString problem;
};
const Bubblewrap &bubblewrap();
/// What every bubblewrap sandbox starts from: all namespaces unshared, the
/// root file system read-only, its own /dev, /proc and an empty /tmp.
QStringList baseArguments();
/// bwrap's arguments for `request` run in `workDir`: baseArguments(), the
/// GPU device nodes when the request asks for them, the files under /tmp
/// that the command names bound back read-only, the work folder writable,
/// then the program and its arguments. Reads only whether those files exist.
QStringList bubblewrapArguments(const SandboxRequest &request, const QString &workDir);

/// Checks that the user `uid` can reach `dir` (every ancestor searchable by
/// others); the problem, or nothing.
QString checkReachable(const QString &dir, uid_t uid);
/// Hands `dir` and everything in it to `uid`; a failure names the first
/// path it could not hand over.
Result<Done> chownTree(const QString &dir, uid_t uid);

} // namespace SandboxIsolation

} // namespace dreamrsi
