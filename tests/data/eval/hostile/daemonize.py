# Hostile: leaves a grandchild behind in a new session (outside the process
# group), then exits with an error as if nothing happened.
import os
import sys
import time

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(60)
        os._exit(0)
    os._exit(0)
time.sleep(0.2)
sys.exit(3)
