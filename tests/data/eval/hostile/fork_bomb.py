# Hostile, but bounded: at most 400 processes even if nothing contains it, so
# a containment failure cannot take the test machine down. Each child sleeps.
import os
import time

for _ in range(400):
    pid = os.fork()  # raises BlockingIOError once RLIMIT_NPROC is reached
    if pid == 0:
        time.sleep(60)
        os._exit(0)
time.sleep(60)
