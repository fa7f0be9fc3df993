import FuzzTargets

FuzzTarget.csv.run()
