import FuzzTargets

FuzzTarget.json.run()
