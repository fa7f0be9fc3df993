import TimelineCLI

TimelineCommand.main()
