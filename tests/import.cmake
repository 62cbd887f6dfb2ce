# Opening OpenEvolve and ShinkaEvolve runs (core/import): fixture runs the
# suites write themselves (runfixtures.h).
dreamrsi_add_test(tst_runimport SOURCES tst_runimport.cpp runfixtures.h
                  LIBS dreamrsi::import SQLite::SQLite3 LABELS import robustness TIMEOUT 120)
dreamrsi_add_test(tst_runimport_cli SOURCES tst_runimport_cli.cpp runfixtures.h clirunsupport.h
                  LIBS dreamrsi::cli SQLite::SQLite3 LABELS import cli TIMEOUT 300)
# The workbench opening runs: File ▸ Open, folders, drag and drop, the metric
# question, the inspector's origin, forks and orphans drawn.
dreamrsi_add_test(tst_gui_runs SOURCES tst_gui_runs.cpp runfixtures.h
                  LIBS dreamrsi::views SQLite::SQLite3 LABELS import gui TIMEOUT 120)
# An imported run's structure: genealogy, islands, migrations, the behaviour grid.
dreamrsi_add_test(tst_gui_islands SOURCES tst_gui_islands.cpp runfixtures.h
                  LIBS dreamrsi::views dreamrsi::import SQLite::SQLite3 LABELS import gui TIMEOUT 120)
