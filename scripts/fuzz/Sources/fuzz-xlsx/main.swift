import FuzzTargets

FuzzTarget.xlsx.run()
