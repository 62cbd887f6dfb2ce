import json

print(json.dumps({"value": 3.0}))
