import TimelineCLI
TimelineCommand.main()
