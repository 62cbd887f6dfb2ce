# Hostile: never ends.
while True:
    pass
