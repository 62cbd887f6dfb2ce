# Every `dreamrsi` command: --help, usage errors and their exit status; the
# shared argument reader of app/cli.
dreamrsi_add_test(tst_cli_commands SOURCES tst_cli_commands.cpp LIBS dreamrsi::cli LABELS cli TIMEOUT 300)

# Before a round and while it runs (docs/online.md#before-a-round-preflight-and-cost,
# #is-it-alive): `round --preflight` checks and estimates against stand-ins on
# 127.0.0.1; `status` names a hanging command agent stalled, `steer kill`
# ends it from a second process, the agent's wall-clock limit kills one.
dreamrsi_add_test(tst_round_preflight SOURCES tst_round_preflight.cpp agentstandin.h clirunsupport.h
                  LIBS dreamrsi::store Qt6::Network LABELS loop cli TIMEOUT 600)
add_dependencies(tst_round_preflight dreamrsi)
dreamrsi_add_test(tst_round_status SOURCES tst_round_status.cpp clirunsupport.h
                  LIBS dreamrsi::loop dreamrsi::store LABELS loop cli TIMEOUT 600)
add_dependencies(tst_round_status dreamrsi)

# `dreamrsi serve` (docs/remote.md) with real processes on 127.0.0.1: a live
# built-in round, the server, and this test as the client (stream, tree,
# cells after a seq, tokens, steering via serve, refusals, limits). Its
# start-up (token files, the round, the server) is tests/servefixture.h,
# shared with tst_gui_remote.
dreamrsi_add_test(tst_serve SOURCES tst_serve.cpp clirunsupport.h servefixture.h servefixture.cpp
                  LIBS dreamrsi::store Qt6::Network LABELS loop cli remote TIMEOUT 600)
add_dependencies(tst_serve dreamrsi)
