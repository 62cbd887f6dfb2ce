# The project layer (core/project), `dreamrsi replay --project` / `approve`,
# and the GUI against the CLI on the same project (issue 10).
dreamrsi_add_test(tst_project SOURCES tst_project.cpp LIBS dreamrsi::project LABELS project cli TIMEOUT 240)
dreamrsi_add_test(tst_gui_project SOURCES tst_gui_project.cpp LIBS dreamrsi::views LABELS gui project TIMEOUT 240)
# One replay configuration per project (issue 23): the store's rules, values
# under it, `dreamrsi project config`, and every command path using it.
dreamrsi_add_test(tst_replayconfig SOURCES tst_replayconfig.cpp clirunsupport.h
                  LIBS dreamrsi::project dreamrsi::store LABELS project cli TIMEOUT 600)
