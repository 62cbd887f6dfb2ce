// `dreamrsi bench livetree`: its arguments; the benchmark is livetreebench.cpp.
#include "benches.h"
#include "livetreebench.h"

namespace dreamrsi {

int runBenchLiveTreeCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    LiveTreeBenchOptions o;
    if (const auto rc = readBenchCounts("livetree",
                                        "usage: dreamrsi bench livetree [--cells 10000] [--rate 100] [--seconds 5] [--fps 60]\n"
                                        "Milliseconds per frame of the Live Round panel holding N cells while R more\n"
                                        "arrive each second, at F frames a second for S seconds.\n",
                                        args,
                                        {{"cells", &o.cells, 1},
                                         {"rate", nullptr, 0, &o.rate},
                                         {"seconds", nullptr, 0, &o.seconds},
                                         {"fps", nullptr, 0, &o.fps}},
                                        out, err))
        return *rc;
    return benchLiveTree(o, out, err);
}

} // namespace dreamrsi
