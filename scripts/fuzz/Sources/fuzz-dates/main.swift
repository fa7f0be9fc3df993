import FuzzTargets

FuzzTarget.dates.run()
