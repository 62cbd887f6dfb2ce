# Progress (docs/online.md#the-recursive-loop): the extraction of best score against cumulative
# agent calls from a project's iterations, and the figure, tab and
# `dreamrsi plot progress` that draw it at paper sizes (offscreen).
dreamrsi_add_test(tst_progress SOURCES tst_progress.cpp LIBS dreamrsi::project LABELS project progress)
dreamrsi_add_test(tst_progress_figure SOURCES tst_progress_figure.cpp LIBS dreamrsi::cli_render LABELS gui figures progress TIMEOUT 180)
