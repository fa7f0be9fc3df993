import FuzzTargets

FuzzTarget.ics.run()
