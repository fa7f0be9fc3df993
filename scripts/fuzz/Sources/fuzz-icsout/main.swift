import FuzzTargets

FuzzTarget.icsout.run()
