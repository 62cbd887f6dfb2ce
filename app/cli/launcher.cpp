// dreamrsi, the executable: a launcher for the commands in
// dreamrsi-commands.so (main.cpp), installed in ../lib/dreamrsi beside it.
//
// Why a launcher: `replay` of a built-in policy over tree files is run over
// and over (by scripts, by the workbench's child replays, by bench compare)
// and takes tens of milliseconds, a third of which was loading libraries it
// never uses. Loading a library costs about as much CPU as the work it is
// loaded for here: QtCore alone takes 8 ms a start, and QtQml, QtNetwork and
// SQLite with what they pull in (Kerberos, libproxy, brotli, zstd) another
// 10 ms. So this executable links only what such a replay needs and
// runs it itself; every other command line, scripted replays included,
// loads the module, whose start costs what dreamrsi's whole start cost
// before (the same libraries, loaded by dlopen instead of at exec).
#include "commandline.h"
#include "commands.h"
#include "hugepageheap.h"
#include "validatetrees.h"

#include "policy/policyspec.h"

#include <QTextStream>

#include <optional>

#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

namespace dreamrsi {

// PolicySpec::create() for a script (policyspec.h): the launcher links this
// definition in place of core/policy's, so that QtQml stays out of it. It
// never runs: the launcher replays only command lines whose policy is a
// built-in one (runsHere), and gives every other to the module.
Result<std::unique_ptr<Policy>> PolicySpec::createScripted() const
{
    return Result<std::unique_ptr<Policy>>::failure(
        QStringLiteral("scripted policy '%1': dreamrsi's launcher replays built-in policies only").arg(m_label));
}

} // namespace dreamrsi

namespace {

/// Whether the command line is `replay` over tree files with a built-in
/// policy, read as the replay command will read it: one --policy (or
/// -policy, --policy=, -policy=) whose value starts with "builtin:", and no
/// --project. Anything less plain (a repeated --policy, an option's value
/// that looks like an option, --help) goes to the module, which reads it
/// the same way either way.
bool runsHere(int argc, char *argv[])
{
    if (argc < 2 || std::strcmp(argv[1], "replay") != 0)
        return false;
    int policies = 0;
    bool builtin = false;
    for (int i = 2; i < argc; ++i) {
        const char *a = argv[i];
        if (a[0] != '-')
            continue;
        const char *name = a + (a[1] == '-' ? 2 : 1);
        const auto is = [name](const char *option) {
            const size_t n = std::strlen(option);
            return std::strncmp(name, option, n) == 0 && (name[n] == '\0' || name[n] == '=');
        };
        if (is("project") || is("help") || is("h"))
            return false;
        if (!is("policy"))
            continue;
        ++policies;
        const char *equals = std::strchr(name, '=');
        const char *value = equals ? equals + 1 : (i + 1 < argc ? argv[++i] : "");
        builtin = std::strncmp(value, "builtin:", 8) == 0;
    }
    return policies == 1 && builtin;
}

/// Whether the command line is `validate FILE…` with no option (nor --help):
/// tree files, which the launcher reads itself unless one may be a run.
bool validatesHere(int argc, char *argv[])
{
    if (argc < 3 || std::strcmp(argv[1], "validate") != 0)
        return false;
    for (int i = 2; i < argc; ++i) {
        if (argv[i][0] == '-' || argv[i][0] == '\0')
            return false;
    }
    return true;
}

/// dreamrsi-commands.so beside this executable: ../lib/dreamrsi/ from its
/// folder (the build tree and an installation lay it out alike). An
/// absolute path, never a search: dreamrsi runs in candidates' workspaces.
std::string modulePath()
{
    char self[4096];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return {};
    std::string dir(self, size_t(n));
    dir.resize(dir.rfind('/') + 1);
    return dir + "../lib/dreamrsi/dreamrsi-commands.so";
}

} // namespace

int main(int argc, char *argv[])
{
    if (validatesHere(argc, argv)) {
        // Reading 1,000 tree files takes about as long as loading the
        // module's libraries: validate runs here when every file is a tree
        // file (no run: no SQLite, nothing of QtQml).
        QStringList files;
        files.reserve(argc - 2);
        for (int i = 2; i < argc; ++i)
            files.append(QString::fromLocal8Bit(argv[i]));
        dreamrsi::CommandLine::nameApplication();
        QTextStream out(stdout);
        QTextStream err(stderr);
        if (const std::optional<int> rc = dreamrsi::runValidateTreeFilesCommand(files, out, err))
            return dreamrsi::CommandLine::finish(*rc, out, err);
    }
    if (!runsHere(argc, argv)) {
        const std::string path = modulePath();
        void *module = path.empty() ? nullptr : ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        using Main = int (*)(int, char **);
        const auto run = module ? reinterpret_cast<Main>(::dlsym(module, "dreamrsi_commands_main")) : nullptr;
        if (!run) {
            std::fprintf(stderr,
                         "dreamrsi: cannot load its commands from %s: %s (dreamrsi-commands.so is built and installed "
                         "in ../lib/dreamrsi beside dreamrsi)\n",
                         path.empty() ? "(its own path is unknown)" : path.c_str(),
                         module ? "no dreamrsi_commands_main in it" : ::dlerror());
            return 1;
        }
        return run(argc, argv);
    }
    // A replay of many worlds: its heap in huge pages from the start, the
    // arguments' strings included (hugepageheap.h; the command asks again).
    if (argc > 2 + 2 * 16)
        dreamrsi::preferHugePageHeap();
    QStringList args;
    args.reserve(argc);
    for (int i = 2; i < argc; ++i)
        args.append(QString::fromLocal8Bit(argv[i]));
    // No QCoreApplication: the replay needs none (its names serve the
    // cache's folder), and making one cost about a millisecond.
    dreamrsi::CommandLine::nameApplication();
    QTextStream out(stdout);
    QTextStream err(stderr);
    return dreamrsi::CommandLine::finish(dreamrsi::runReplayCommand(args, out, err), out, err);
}
