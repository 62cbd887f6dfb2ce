# Discovery agents (core/agent): HTTP providers against local stand-ins,
# command-line agents, the exploration prompt and the price table.
dreamrsi_add_test(tst_agent_http SOURCES tst_agent_http.cpp agentstandin.h
                  LIBS dreamrsi::agent Qt6::Network Qt6::Concurrent LABELS agent TIMEOUT 180)
dreamrsi_add_test(tst_agent_command SOURCES tst_agent_command.cpp
                  LIBS dreamrsi::agent Qt6::Concurrent LABELS agent TIMEOUT 180)
dreamrsi_add_test(tst_agent_prompt SOURCES tst_agent_prompt.cpp
                  LIBS dreamrsi::agent LABELS agent TIMEOUT 60)
dreamrsi_add_test(tst_agent_settings SOURCES tst_agent_settings.cpp
                  LIBS dreamrsi::views LABELS agent gui TIMEOUT 60)
# The presets with the real coding-agent CLIs from npm (installed into a cache
# folder by tests/install-agent-tools.sh) against provider stand-ins.
dreamrsi_add_test(tst_agent_presets SOURCES tst_agent_presets.cpp agentstandin.h roundtestsupport.h
                  LIBS dreamrsi::agent dreamrsi::store Qt6::Network LABELS agent TIMEOUT 1200)
