# File ▸ Connect to Server… (docs/remote.md) offscreen: `dreamrsi serve` on the
# demo and on a live built-in round, as real processes on 127.0.0.1, connected
# to through the dialog; the same worlds, cells and values as the file, the
# live tree growing, a server restarted mid-round.
dreamrsi_add_test(tst_gui_remote SOURCES tst_gui_remote.cpp clirunsupport.h servefixture.h servefixture.cpp
                  LIBS dreamrsi::views dreamrsi::store Qt6::Network LABELS gui remote loop TIMEOUT 600)
add_dependencies(tst_gui_remote dreamrsi)
# Its functions wait on child processes with limits that add up to about 420 s
# (aWaitingLoopShowsInThePanel); QtTest's default of 300 s a function would
# cut one that stalls short of the failing wait's own message.
set_property(TEST tst_gui_remote APPEND PROPERTY ENVIRONMENT "QTEST_FUNCTION_TIMEOUT=480000")
