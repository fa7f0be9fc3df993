import FuzzTargets

FuzzTarget.ndjson.run()
