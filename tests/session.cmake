# The session library of views/session/ without widgets: the suite links
# dreamrsi::session only (no dreamrsi::views, no Qt6::Widgets; the suite also
# checks that QtWidgets is not loaded). Its sweeps run in a child `dreamrsi`,
# so it waits for the program to be built.
dreamrsi_add_test(tst_session SOURCES tst_session.cpp demotrees.h storetestsupport.h
                  LIBS dreamrsi::session LABELS session TIMEOUT 120)
# The session's file work on its own, without widgets: File ▸ Reset Demo's
# copy made again from a source folder (session/demoproject), tree files and
# runs read as worlds (session/worldreader), a malformed one named.
dreamrsi_add_test(tst_session_files SOURCES tst_session_files.cpp demotrees.h runfixtures.h
                  LIBS dreamrsi::session SQLite::SQLite3 LABELS session NO_PROGRAM TIMEOUT 120)
# The preferences as one observable object (session/preferences) and the
# window's other remembered values (session/uistate), offscreen: it links
# the views for Launch Round, which shares the agent time limit with Settings.
dreamrsi_add_test(tst_preferences SOURCES tst_preferences.cpp
                  LIBS dreamrsi::views LABELS session gui NO_PROGRAM TIMEOUT 120)
