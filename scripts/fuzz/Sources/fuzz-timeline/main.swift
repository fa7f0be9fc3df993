import FuzzTargets

FuzzTarget.timeline.run()
