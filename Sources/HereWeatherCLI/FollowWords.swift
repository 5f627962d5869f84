/// The words `--follow` adds that a person reads, in one table until the catalogue (issue 30)
/// takes them: the usage errors of options that cannot follow.
enum FollowWords {
    static let needsOneLine = "--follow prints one line per change: use it with --waybar, --format FMT or --json."
    static let noReplay = "--follow fetches the weather again as it ages: use it without --weather-replay."
}
