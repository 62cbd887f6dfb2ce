# Compare runs across seeds and frameworks and the path to the best
# (docs/compare.md): `dreamrsi plot compare` over tree files and imported
# runs (fixtures of runfixtures.h), `dreamrsi path`, the Compare tab and the
# inspector's Path page (offscreen).
dreamrsi_add_test(tst_compare SOURCES tst_compare.cpp runfixtures.h clirunsupport.h
                  LIBS dreamrsi::cli_render SQLite::SQLite3 LABELS cli figures import gui TIMEOUT 180)
