public enum TimelineCommand { public static func main() {} }
